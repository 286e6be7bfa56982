import Foundation
import SpineDetection

/// Everything a scan needs to know besides the photos; the CLI builds it from flags.
/// Library code never reads flags or the environment.
public struct ScanConfiguration: Sendable {
    /// Long side, in pixels, of the reduced image the detector sees. Default 1280: spines as thin as
    /// 1% of the photo width stay 12 px wide, and detection stays far below decode time.
    public var detectionMaxSide: Int = DetectionInput.defaultMaxSide
    /// Photos decoded and detected in parallel. Default: the number of cores.
    public var jobs: Int = ProcessInfo.processInfo.activeProcessorCount
    /// Pixel limit checked from the header before decoding (decompression bombs cost nothing).
    public var maxPixels: Int = 150_000_000
    /// When false nothing is written to the library (`--dry-run`).
    public var fileResults: Bool = true
    /// Re-scan photos already filed: their pending Works are replaced, verified ones never touched.
    public var rescan: Bool = false
    /// How long a photo claim on a shared (PostgreSQL) library lasts before another worker may take the photo
    /// over. Default 300 s: far longer than one photo takes, short enough that a dead worker's photo is finished.
    public var photoLease: TimeInterval = 300
    /// Spines detected with less confidence are dropped before reading.
    public var minConfidence: Double = 0
    /// Longest side of the crop stored beside the library for review. Default 1024: sharp in a
    /// terminal or an image viewer, about 60 kB per spine.
    public var storedCropMaxSide: Int = 1024
    /// Also write every crop as a JPEG into this folder (`--crops DIR`).
    public var cropsDirectory: String?
    /// Also write a detection overlay PNG per photo into this folder (`--overlay DIR`).
    public var overlayDirectory: String?
    /// Write the overlay of a single-photo scan to exactly this file (`--overlay OUT.png`).
    public var overlayFile: String?
    /// Longest side of overlay images. Default 1600.
    public var overlayMaxSide: Int = 1600
    /// Which spine detector runs (`--detector`).
    public var detector: DetectorChoice = .fused

    public init() {}
}

/// The spine detectors a person can choose between.
public enum DetectorChoice: String, Sendable, Equatable, CaseIterable {
    /// The learned spine model says which way up the photo was taken; the classic detector finds the spines on
    /// the photo turned upright. What `scan` and `serve` run unless told otherwise.
    case fused
    /// The classic row detector alone, on the photo as taken (the detector before the learned model).
    case classic
    /// The learned spine model alone.
    case learned
}
