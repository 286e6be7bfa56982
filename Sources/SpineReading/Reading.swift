import Foundation
public import ShelfImage

/// One upright spine crop as the book stands: tall for standing books, wide for lying ones.
/// The reader, not the caller, decides which way the text runs, because only the reader can tell
/// which direction reads better.
public struct SpineCrop: Sendable {
    /// The spine id the pipeline uses to put the reading back on its detection.
    public var id: Int
    public var image: RGBImage

    public init(id: Int, image: RGBImage) {
        self.id = id
        self.image = image
    }
}

/// Tokens an endpoint charged for one call, when it says so. Summed across readings to show the cost.
public struct TokenUsage: Sendable, Codable, Equatable {
    public var promptTokens: Int
    public var completionTokens: Int
    public var totalTokens: Int

    public init(promptTokens: Int = 0, completionTokens: Int = 0, totalTokens: Int? = nil) {
        self.promptTokens = promptTokens
        self.completionTokens = completionTokens
        self.totalTokens = totalTokens ?? promptTokens + completionTokens
    }

    public static let zero = TokenUsage()

    public static func + (lhs: TokenUsage, rhs: TokenUsage) -> TokenUsage {
        TokenUsage(
            promptTokens: lhs.promptTokens + rhs.promptTokens,
            completionTokens: lhs.completionTokens + rhs.completionTokens,
            totalTokens: lhs.totalTokens + rhs.totalTokens)
    }
}

/// What a reader made of one crop. A failed crop is still a `Reading` (with `error` set) so that one bad
/// spine or one endpoint fault never costs the other spines or the photo, and the crop can be retried later.
public struct Reading: Sendable, Codable, Equatable {
    public var spineID: Int
    public var title: String?
    public var authors: [String]
    /// 0...1; comparable within one reader, not across readers.
    public var confidence: Double
    /// Everything the reader saw, kept because the title split is a guess and the catalogue matcher can use the rest.
    public var rawText: String
    public var reader: String
    public var model: String?
    public var promptVersion: String?
    /// Why the crop is unread; nil when it was read.
    public var error: String?
    /// Tokens of the call that produced this reading. A call covering several crops puts its usage on the
    /// first crop's reading only, so summing over readings gives the exact cost. Nil for cached readings.
    public var usage: TokenUsage?
    /// The title runs bottom to top up the standing spine (on a lying book's crop: upside down), as the reader
    /// found by reading both ways; nil when the reader does not tell. The review turns the crop by it.
    public var textRunsUp: Bool?

    public init(
        spineID: Int, title: String?, authors: [String] = [], confidence: Double, rawText: String = "",
        reader: String, model: String? = nil, promptVersion: String? = nil, error: String? = nil,
        usage: TokenUsage? = nil, textRunsUp: Bool? = nil
    ) {
        self.spineID = spineID
        self.title = title
        self.authors = authors
        self.confidence = confidence
        self.rawText = rawText
        self.reader = reader
        self.model = model
        self.promptVersion = promptVersion
        self.error = error
        self.usage = usage
        self.textRunsUp = textRunsUp
    }

    /// An unread crop with its reason.
    public static func unread(
        spineID: Int, reason: String, reader: String, model: String? = nil, promptVersion: String? = nil,
        rawText: String = "", usage: TokenUsage? = nil
    ) -> Reading {
        Reading(
            spineID: spineID, title: nil, authors: [], confidence: 0, rawText: rawText, reader: reader,
            model: model, promptVersion: promptVersion, error: reason, usage: usage)
    }

    public var isRead: Bool { error == nil }

    /// An offline reader's reading of one crop from the split of its text. A name alone is worth keeping (the
    /// title is left to the review); a crop with neither title nor author is unread, and says whether any text
    /// was seen at all.
    static func fromSplit(
        _ split: TitleSplitter.Split, spineID: Int, rawText: String, reader: String, model: String?,
        promptVersion: String?, textRunsUp: Bool? = nil
    ) -> Reading {
        guard split.title != nil || !split.authors.isEmpty else {
            var unread = Reading.unread(
                spineID: spineID, reason: rawText.isEmpty ? "no text found" : "no confident text", reader: reader,
                model: model, promptVersion: promptVersion, rawText: rawText)
            unread.textRunsUp = rawText.isEmpty ? nil : textRunsUp
            return unread
        }
        return Reading(
            spineID: spineID, title: split.title, authors: split.authors, confidence: split.confidence,
            rawText: rawText, reader: reader, model: model, promptVersion: promptVersion, textRunsUp: textRunsUp)
    }
}

extension Array where Element == Reading {
    /// The summed token usage of these readings, nil when no reading reported any.
    public var totalUsage: TokenUsage? {
        let reported = compactMap(\.usage)
        return reported.isEmpty ? nil : reported.reduce(.zero, +)
    }
}

/// Turns spine crops into readings. Implementations never throw per crop: each failure becomes that
/// crop's `Reading.error`, so callers can file whatever was read.
public protocol SpineReader: Sendable {
    /// Recorded in every reading (`tesseract`, `openai`, `gemini`).
    var name: String { get }
    /// One reading per crop, in the order of `crops`.
    func read(_ crops: [SpineCrop]) async -> [Reading]
}
