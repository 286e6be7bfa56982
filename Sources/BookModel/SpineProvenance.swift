/// Where a pending Work came from: which photo, which spine, what the reader saw. Kept on the Work so a
/// reviewer can judge the reading against the crop long after the photo has moved.
public struct SpineProvenance: Sendable, Equatable, Hashable, Codable {
    /// SHA-256 of the photo's bytes (hex); the same photo filed twice is recognized by it.
    public var photoContentHash: String
    /// Shelf row (0 = top) and position in the row (0 = left) of the spine.
    public var row: Int
    public var position: Int
    /// A book lying flat rather than standing.
    public var lying: Bool
    /// The spine's quad, normalized to the upright photo: [[x, y]] x 4, top-left first, clockwise.
    public var polygon: [[Double]]
    public var detectionConfidence: Double
    public var readingConfidence: Double?
    /// What the reader returned before any clean-up, for judging and for re-reading later.
    public var rawText: String?
    /// "tesseract", "openai", "gemini" …, the model name and the prompt version that produced the reading.
    public var reader: String?
    public var model: String?
    public var promptVersion: String?
    /// Why reading failed, when it did (the Work is still filed, titled `Work.unreadTitle`).
    public var readError: String?
    public var callNumber: String?
    public var catalogScore: Double?
    /// The crop's file name inside the library's crops directory.
    public var cropFile: String?
    /// With `--enrich` or `library enrich`: whether a provider's book was applied, or why not.
    public var enrichmentStatus: EnrichmentStatus?
    /// The title runs bottom to top up the standing spine (most German and French books) rather than top to
    /// bottom (most English ones), as the reader found; the review turns the crop accordingly. Nil: not known.
    public var textRunsUp: Bool?

    public init(photoContentHash: String, row: Int = 0, position: Int = 0, lying: Bool = false, polygon: [[Double]] = [],
                detectionConfidence: Double = 0, readingConfidence: Double? = nil, rawText: String? = nil,
                reader: String? = nil, model: String? = nil, promptVersion: String? = nil, readError: String? = nil,
                callNumber: String? = nil, catalogScore: Double? = nil, cropFile: String? = nil,
                enrichmentStatus: EnrichmentStatus? = nil, textRunsUp: Bool? = nil) {
        self.photoContentHash = photoContentHash; self.row = row; self.position = position; self.lying = lying
        self.polygon = polygon; self.detectionConfidence = detectionConfidence; self.readingConfidence = readingConfidence
        self.rawText = rawText; self.reader = reader; self.model = model; self.promptVersion = promptVersion
        self.readError = readError; self.callNumber = callNumber; self.catalogScore = catalogScore; self.cropFile = cropFile
        self.enrichmentStatus = enrichmentStatus; self.textRunsUp = textRunsUp
    }
}
