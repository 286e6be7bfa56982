import Foundation
import BookModel
public import ShelfImage

/// Every book a vision model found on a whole photo (whole-photo mode, as the seed app's backend does it),
/// kept beside the per-spine readings so users can compare the two.
public struct PhotoReading: Sendable, Codable, Equatable {
    public struct Box: Sendable, Codable, Equatable {
        /// Pixels of the photo, origin top-left.
        public var x: Double, y: Double, width: Double, height: Double

        public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x; self.y = y; self.width = width; self.height = height
        }

        /// From the model's fractions (0...1) of the photo; also accepts 0...1000 or pixel boxes.
        init?(_ json: JSONValue, width w: Int, height h: Int) {
            guard let x = json["x"]?.doubleValue, let y = json["y"]?.doubleValue,
                let bw = json["width"]?.doubleValue, let bh = json["height"]?.doubleValue
            else { return nil }
            let largest = max(x + bw, y + bh)
            let (sx, sy): (Double, Double) =
                largest <= 1.0001 ? (Double(w), Double(h)) : largest <= 1000 && max(w, h) > 1000 ? (Double(w) / 1000, Double(h) / 1000) : (1, 1)
            self.init(x: x * sx, y: y * sy, width: bw * sx, height: bh * sy)
        }
    }

    public struct Book: Sendable, Codable, Equatable {
        public var title: String
        public var authors: [String]
        public var confidence: Double
        public var box: Box?
    }

    public var books: [Book]
    public var rawText: String
    public var reader: String
    public var model: String?
    public var promptVersion: String?
    public var usage: TokenUsage?
}

/// A reader that can also take the whole photo in one call.
public protocol WholePhotoReader: Sendable {
    var name: String { get }
    /// Throws when the call fails after its retries; the message says why.
    func readPhoto(_ photo: RGBImage) async throws -> PhotoReading
}
