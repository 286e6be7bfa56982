import Foundation
import SpineDetection
import SpineReading
import Enrichment

/// One spine as the pipeline saw it: where it is, what was read, what the catalogue said.
public struct ScannedSpine: Sendable {
    public var detection: DetectedSpine
    public var reading: Reading?
    public var catalogMatch: CatalogMatchSummary?
    /// With `--enrich`: the provider's answer (or why there is none).
    public var enrichment: EnrichmentResult?
    /// The JPEG stored for review (nil when no crop was made, as in a detection-only dry run).
    public var cropJPEG: [UInt8]?

    /// Detection and reading confidence combined: a spine is only as trustworthy as its weaker stage.
    public var confidence: Double {
        guard let reading, reading.error == nil else { return detection.confidence }
        return min(1, max(0, (detection.confidence * reading.confidence).squareRoot()))
    }
}

/// The catalogue's best candidate for a spine, and whether it was accepted over the raw reading.
public struct CatalogMatchSummary: Sendable, Codable, Equatable {
    public var title: String
    public var authors: [String]
    public var isbn: String?
    public var callNumber: String?
    public var score: Double
    public var accepted: Bool
}

/// What happened to one photo of a batch.
public enum PhotoOutcome: Sendable {
    case scanned(PhotoScan)
    case skipped(path: String, contentHash: String)
    case failed(path: String, reason: String)
    /// Not scanned, for a reason that is the photo's and no fault of the batch (over the pixel limit).
    case leftOut(LeftOutFile)
}

/// One photo's scan: the spines found, what was filed.
public struct PhotoScan: Sendable {
    public var path: String
    public var contentHash: String
    /// Upright size of the photo in pixels.
    public var width: Int
    public var height: Int
    public var rows: [ShelfRow]
    public var spines: [ScannedSpine]
    /// Works filed in the library for this photo (empty in a dry run).
    public var filedWorkIDs: [Int64]
    public var replacedPending: Bool
    public var elapsed: Duration

    public var booksRead: Int { spines.filter { $0.reading?.error == nil && !($0.reading?.title ?? "").isEmpty }.count }
}

/// Progress of a batch, as it happens, for a progress bar or a log.
public enum ScanEvent: Sendable {
    case started(totalPhotos: Int)
    case finished(index: Int, outcome: PhotoOutcome)
}

/// The end-of-batch summary.
public struct BatchSummary: Sendable, Equatable {
    public var scanned = 0
    public var skipped = 0
    public var failed = 0
    /// Files not taken, each with why, in path order: those the folder walk passed over and the photos
    /// left out when their turn came.
    public var leftOut: [LeftOutFile] = []
    public var spinesFound = 0
    public var booksRead = 0
    public var pendingInQueue: Int?
    /// Spines whose reading failed, and the first reason seen (a wrong key or a down endpoint fails them all alike).
    public var unreadSpines = 0
    public var firstReadError: String?
    /// Tokens the vision endpoint reported for this batch (nil for Tesseract, or when none were reported).
    public var tokens: TokenUsage?
    public var elapsed: Duration = .zero

    public init() {}

    public mutating func add(_ outcome: PhotoOutcome) {
        switch outcome {
        case .scanned(let scan):
            scanned += 1
            spinesFound += scan.spines.count
            booksRead += scan.booksRead
            for case let reason? in scan.spines.map(\.reading?.error) {
                unreadSpines += 1
                if firstReadError == nil { firstReadError = reason }
            }
            if let used = scan.spines.compactMap(\.reading).totalUsage {
                tokens = (tokens ?? .zero) + used
            }
        case .skipped: skipped += 1
        case .failed: failed += 1
        case .leftOut(let file):
            let at = leftOut.firstIndex { $0.path > file.path } ?? leftOut.endIndex
            leftOut.insert(file, at: at)
        }
    }
}
