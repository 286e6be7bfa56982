import BookModel
import Foundation
import LibraryCore
import ShelfScan

// The wire mapping: what the pipeline and the library say, as BooksTrack's clients read it.

extension PhotoResult {
    /// What the pipeline said about one photo, as BooksTrack's clients read it. A photo the library already
    /// had (this job resumed after a restart, or the same photo sent again) answers with the Works filed then.
    init(_ outcome: PhotoOutcome, photoIndex: Int, library: any LibraryStoring) async {
        switch outcome {
        case .scanned(let scan):
            if scan.filedWorkIDs.isEmpty && !scan.spines.isEmpty {
                self = await Self.filed(contentHash: scan.contentHash, photoIndex: photoIndex, library: library)
                return
            }
            let response = scan.response
            let books = response.detectedBooks.enumerated().map { i, detected in
                let spine = scan.spines[i]
                let workID = scan.filedWorkIDs.indices.contains(i) ? scan.filedWorkIDs[i] : nil
                return ScanBook(detected, spine: spine, workID: workID, photoIndex: photoIndex)
            }
            self.init(outcome: .scanned, reason: nil, width: scan.width, height: scan.height, books: books)
        case .skipped(_, let hash):
            self = await Self.filed(contentHash: hash, photoIndex: photoIndex, library: library)
        case .failed(_, let reason):
            self.init(outcome: .failed, reason: Self.publicReason(reason), width: nil, height: nil, books: [])
        case .leftOut:
            // Only a folder scan leaves a photo out; `scan(photoAt:)` fails one over the scanner's pixel limit.
            self.init(outcome: .failed, reason: "The photo has more pixels than the scanner decodes.", width: nil, height: nil, books: [])
        }
    }

    static func filed(contentHash: String, photoIndex: Int, library: any LibraryStoring) async -> PhotoResult {
        do {
            let works = try await library.works(photoContentHash: contentHash)
            return PhotoResult(outcome: .alreadyFiled, reason: nil, width: nil, height: nil,
                               books: works.map { ScanBook(filed: $0, photoIndex: photoIndex) })
        } catch {
            return PhotoResult(outcome: .failed, reason: "library: \(error)", width: nil, height: nil, books: [])
        }
    }

    /// Failure reasons name the server's upload path; clients get the photo's name in the job without it.
    static func publicReason(_ reason: String) -> String {
        reason.replacingOccurrences(of: #"/[^\s:]*/(photo-[0-9]+\.[a-z]+)"#, with: "$1", options: .regularExpression)
    }
}

extension ScanBook {
    /// From the pipeline's seed-004 entry for a spine just scanned.
    init(_ detected: DetectedBook, spine: ScannedSpine, workID: Int64?, photoIndex: Int) {
        let unread = detected.work.title.isEmpty || detected.work.title == Work.unreadTitle
        let authors = detected.authors?.map(\.name) ?? []
        self.init(
            title: unread ? nil : detected.work.title,
            author: authors.isEmpty ? nil : authors.joined(separator: ", "),
            isbn: detected.edition.isbn,
            confidence: detected.confidence,
            boundingBox: detected.work.boundingBox ?? spine.boundingBox.dto,
            enrichmentStatus: ScanBook.booksTrackStatus(detected.enrichmentStatus, catalogAccepted: spine.catalogMatch?.accepted == true),
            polygon: detected.polygon,
            work: detected.work,
            edition: detected.edition,
            authors: detected.authors,
            workId: workID,
            reviewStatus: detected.work.reviewStatus,
            cropUrl: workID.map { RoutePath.workCrop($0) },
            photoIndex: photoIndex,
            unreadReason: detected.unreadReason,
            enrichment: detected.enrichmentStatus)
    }

    /// BooksTrack's `enrichmentStatus` words for ShelfScan's enrichment outcome: `pending` when no provider was
    /// asked (the server scans without `--enrich`), `success` when a provider's or the catalogue's book was applied.
    static func booksTrackStatus(_ status: EnrichmentStatus?, catalogAccepted: Bool) -> String {
        switch status?.state {
        case .enriched?: "success"
        case .notFound?, .candidatesOnly?, .nothingToSearch?: "not_found"
        case .unavailable?: "error"
        case nil: catalogAccepted ? "success" : "pending"
        }
    }

    /// From a Work the library filed earlier for the same photo.
    init(filed work: Work, photoIndex: Int) {
        let dto = work.dto
        let authors = work.authors.map(\.dto)
        let edition = work.editions.first?.dto ?? EditionDTO(isbn: nil, isbns: [])
        let spine = work.spine
        let confidence: Double = {
            guard let spine else { return 0 }
            guard let reading = spine.readingConfidence, spine.readError == nil else { return spine.detectionConfidence }
            return min(1, max(0, (spine.detectionConfidence * reading).squareRoot()))
        }()
        self.init(
            title: work.title == Work.unreadTitle || work.title.isEmpty ? nil : work.title,
            author: authors.isEmpty ? nil : authors.map(\.name).joined(separator: ", "),
            isbn: edition.isbn,
            confidence: (confidence * 1_000_000).rounded() / 1_000_000,
            boundingBox: dto.boundingBox ?? BoundingBoxDTO(x: 0, y: 0, width: 0, height: 0),
            enrichmentStatus: ScanBook.booksTrackStatus(spine?.enrichmentStatus, catalogAccepted: spine?.catalogScore != nil),
            polygon: spine?.polygon,
            work: dto,
            edition: edition,
            authors: authors.isEmpty ? nil : authors,
            workId: work.id,
            reviewStatus: work.reviewStatus,
            cropUrl: work.id.map { RoutePath.workCrop($0) },
            photoIndex: photoIndex,
            unreadReason: work.title == Work.unreadTitle ? (spine?.readError ?? "not read") : nil,
            enrichment: spine?.enrichmentStatus)
    }
}

