import Catalog
import Enrichment
import Foundation
import LibraryCore
import ShelfImage
import SpineDetection
import SpineReading
import SpineModel
import TextCue

/// The product's main job for one photo: decode, detect, crop, read, match, file.
///
/// Data flows one way through plain values; the scanner holds only long-lived collaborators (the
/// detector's parameters, a reader, a catalogue index, the store), each safe to share across photos.
public struct PhotoScanner: Sendable {
    public var configuration: ScanConfiguration
    public var detector: SpineDetector
    /// PP-OCR's text detector over the whole photo, a cue for the spine detector; nil detects without it.
    public var textCue: TextCue?
    /// The learned spine model, for `configuration.detector` fused or learned; nil runs the classic detector alone.
    public var spineModel: SpineModel?
    public var reader: (any SpineReader)?
    public var catalog: CatalogIndex?
    public var library: (any LibraryStoring)?
    /// Metadata providers asked for each reading (`--enrich`); nil asks none.
    public var enricher: Enricher?
    /// The pause before asking again for a photo another worker on a shared library holds: half a second.
    /// Tests pass a gate instead that moves the other worker (it files the photo, or lets its claim go) and
    /// returns, so each branch of the wait is reached on purpose rather than timed.
    public var claimPause: @Sendable () async throws -> Void = { try await Task.sleep(for: .milliseconds(500)) }

    public init(
        configuration: ScanConfiguration = .init(),
        detector: SpineDetector = SpineDetector(),
        reader: (any SpineReader)? = nil,
        textCue: TextCue? = nil,
        catalog: CatalogIndex? = nil,
        library: (any LibraryStoring)? = nil
    ) {
        self.configuration = configuration
        self.detector = detector
        self.reader = reader
        self.textCue = textCue
        self.catalog = catalog
        self.library = library
    }

    /// Scans one photo. Never throws: every failure becomes `.failed` with a reason a person can act on,
    /// so one bad photo never stops a batch. A photo over the pixel limit fails too: it was asked for by name.
    public func scan(photoAt path: String) async -> PhotoOutcome {
        await scan(photoAt: path, waitForOtherWorkers: true, foundInFolder: false)!
    }

    /// This process's name in photo claims: host and process ID.
    static let workerID = "\(ProcessInfo.processInfo.hostName):\(ProcessInfo.processInfo.processIdentifier)"

    /// Scans one photo unless another worker on a shared library holds it: then nil at once, or, with
    /// `waitForOtherWorkers`, waits until that worker has filed it (skipped) or its lease ran out (scanned here).
    /// A photo `foundInFolder` that is over the pixel limit is left out (the folder's other photos are what the
    /// user asked for); one named on its own fails with the decoder's line.
    func scan(photoAt path: String, waitForOtherWorkers: Bool, foundInFolder: Bool) async -> PhotoOutcome? {
        let clock = ContinuousClock()
        let start = clock.now
        let bytes: [UInt8]
        do {
            bytes = try FileBytes.contents(of: path)
        } catch {
            return .failed(path: path, reason: "\(error)")
        }
        let hash = ContentHash.sha256Hex(bytes)
        var replacing = false
        if let library {
            do {
                if try await library.photoStatus(contentHash: hash) != nil {
                    guard configuration.rescan else { return .skipped(path: path, contentHash: hash) }
                    replacing = true
                }
            } catch {
                return .failed(path: path, reason: "library: \(error)")
            }
        }
        var claimed = false
        if let library, configuration.fileResults, !replacing {
            do {
                while !(try await library.claimPhoto(contentHash: hash, worker: Self.workerID, lease: configuration.photoLease)) {
                    if try await library.photoStatus(contentHash: hash) != nil { return .skipped(path: path, contentHash: hash) }
                    guard waitForOtherWorkers else { return nil }
                    try await claimPause()
                }
                claimed = true
            } catch {
                return .failed(path: path, reason: "library: \(error)")
            }
        }
        do {
            var scan = try await process(bytes: bytes, path: path, contentHash: hash)
            if configuration.fileResults, let library {
                scan.filedWorkIDs = try await library.file(Self.filing(for: scan), replacePending: replacing)
                scan.replacedPending = replacing
            }
            scan.elapsed = clock.now - start
            return .scanned(scan)
        } catch let error as ShelfImageError where error.code == .tooManyPixels && foundInFolder {
            if claimed, let library { try? await library.releasePhoto(contentHash: hash, worker: Self.workerID) }
            return .leftOut(LeftOutFile(path: path, reason: .overPixelLimit))
        } catch {
            if claimed, let library { try? await library.releasePhoto(contentHash: hash, worker: Self.workerID) }
            return .failed(path: path, reason: "\(error)")
        }
    }

    /// The spines in the reduced photo, by the detector the configuration names (the classic one where the spine
    /// model could not be loaded).
    func detect(_ image: RGBImage) -> DetectionResult {
        let classic = { (upright: RGBImage) in detector.detect(upright, text: textCue?.evidence(upright)) }
        guard let spineModel, configuration.detector != .classic else { return classic(image) }
        if configuration.detector == .learned { return spineModel.detect(image) }
        return FusedDetection(model: spineModel).detect(image) { upright, _ in classic(upright) }
    }

    /// Decode → detect → crop → read → match, with no side effect but the optional crop and overlay files.
    func process(bytes: [UInt8], path: String, contentHash: String) async throws -> PhotoScan {
        let info = try ImageDecoder.info(bytes)
        let longSide = max(info.uprightWidth, info.uprightHeight)
        guard longSide > 0 else { throw ScanError.emptyImage(path) }

        var fullOptions = DecodeOptions()
        fullOptions.maxPixels = configuration.maxPixels
        let wantsCrops = reader != nil || configuration.fileResults || configuration.cropsDirectory != nil
        // JPEG and WebP decode straight to a reduced size, cheaply; PNG and HEIF decode whole either way, so when
        // crops are wanted they are decoded once, at full size, and shrunk for detection.
        var full: RGBImage?
        if wantsCrops, info.format == .png || info.format == .heif { full = try ImageDecoder.decode(bytes, options: fullOptions) }
        let reduced = try full?.downscaled(maxSide: configuration.detectionMaxSide)
            ?? DetectionInput.decode(bytes, info: info, maxSide: configuration.detectionMaxSide, maxPixels: configuration.maxPixels)
        let detection = detect(reduced)
        let kept = detection.spines.filter { $0.confidence >= configuration.minConfidence }

        let overlayPath = configuration.overlayFile
            ?? configuration.overlayDirectory.map { Self.outputPath(in: $0, for: path, suffix: "overlay.png") }
        if let overlayPath {
            let overlay = Overlay.render(reduced.downscaled(maxSide: configuration.overlayMaxSide), detection)
            try Self.write(overlay.pngData(), to: overlayPath)
        }

        var spines = kept.map { ScannedSpine(detection: $0) }
        if !spines.isEmpty && wantsCrops {
            // The full-size photo (36 MB at 12 MP) lives only while the crops are cut, not while they are read:
            // with several photos in flight at a server it was most of the peak memory.
            let crops: [SpineCrop] = try {
                let image = try full ?? ImageDecoder.decode(bytes, options: fullOptions)
                full = nil
                var crops: [SpineCrop] = []
                crops.reserveCapacity(spines.count)
                for index in spines.indices {
                    let crop = SpineGeometry.crop(spines[index].detection, from: image)
                    crops.append(SpineCrop(id: index, image: crop))
                    let stored = crop.downscaled(maxSide: configuration.storedCropMaxSide)
                    spines[index].cropJPEG = try stored.jpegData(quality: 85)
                    if let cropsDirectory = configuration.cropsDirectory, let jpeg = spines[index].cropJPEG {
                        try Self.write(jpeg, to: Self.outputPath(in: cropsDirectory, for: path, suffix: String(format: "spine-%03d.jpg", index + 1)))
                    }
                }
                return crops
            }()
            if let reader {
                let readings = await reader.read(crops)
                for reading in readings where spines.indices.contains(reading.spineID) {
                    spines[reading.spineID].reading = reading
                }
            }
        }
        if let catalog {
            for index in spines.indices {
                guard let reading = spines[index].reading, reading.error == nil else { continue }
                spines[index].catalogMatch = CatalogApplication.bestMatch(for: reading, in: catalog)
            }
        }
        if let enricher { await EnrichmentApplication.enrich(&spines, with: enricher) }
        return PhotoScan(
            path: path, contentHash: contentHash,
            width: info.uprightWidth, height: info.uprightHeight,
            rows: detection.rows, spines: spines,
            filedWorkIDs: [], replacedPending: false, elapsed: .zero
        )
    }

    static func outputPath(in directory: String, for photo: String, suffix: String) -> String {
        let stem = ((photo as NSString).lastPathComponent as NSString).deletingPathExtension
        return (directory as NSString).appendingPathComponent("\(stem).\(suffix)")
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

/// Errors of the pipeline itself (the stages have their own).
public enum ScanError: Error, CustomStringConvertible, Equatable {
    case emptyImage(String)

    public var description: String {
        switch self {
        case .emptyImage(let path): "\(path) has no pixels."
        }
    }
}
