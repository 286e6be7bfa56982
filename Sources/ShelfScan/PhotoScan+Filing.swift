import BookModel
import LibraryCore

extension PhotoScanner {
    /// The library's view of a scanned photo: one pending Work per spine, in spine order.
    static func filing(for scan: PhotoScan) -> PhotoFiling {
        PhotoFiling(
            contentHash: scan.contentHash,
            originalImagePath: scan.path,
            imageWidth: scan.width,
            imageHeight: scan.height,
            spines: scan.spines.map { spine in
                let reading = spine.reading
                let match = spine.catalogMatch
                return SpineFiling(
                    title: spine.bestTitle == Work.unreadTitle ? nil : spine.bestTitle,
                    authors: spine.bestAuthors,
                    boundingBox: spine.boundingBox,
                    polygon: spine.polygon,
                    row: spine.detection.row,
                    position: spine.detection.position,
                    lying: spine.detection.lying,
                    detectionConfidence: spine.detection.confidence,
                    readingConfidence: reading.flatMap { $0.error == nil ? $0.confidence : nil },
                    rawText: reading?.rawText,
                    reader: reading?.reader,
                    model: reading?.model,
                    promptVersion: reading?.promptVersion,
                    readError: reading?.error,
                    isbn: spine.bestISBN,
                    callNumber: match?.accepted == true ? match?.callNumber : nil,
                    catalogScore: match?.score,
                    cropJPEG: spine.cropJPEG ?? [],
                    enrichment: spine.enrichment?.accepted?.book.record,
                    enrichmentStatus: spine.enrichment?.status,
                    textRunsUp: reading?.textRunsUp
                )
            }
        )
    }
}
