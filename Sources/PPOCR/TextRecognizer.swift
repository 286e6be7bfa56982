import Foundation
import OnnxRuntime
import ShelfImage

/// What the recognizer read on one line image.
public struct RecognizedText: Sendable, Equatable {
    public struct Character: Sendable, Equatable {
        public var text: String
        public var confidence: Double
        /// Horizontal position of the character's centre as a fraction of the line image's width, 0...1.
        public var position: Double

        public init(text: String, confidence: Double, position: Double) {
            self.text = text
            self.confidence = confidence
            self.position = position
        }
    }

    public var characters: [Character]

    public init(characters: [Character]) {
        self.characters = characters
    }

    public var text: String { characters.map(\.text).joined() }
    /// Mean character confidence; 0 for an empty reading.
    public var confidence: Double {
        characters.isEmpty ? 0 : characters.reduce(0) { $0 + $1.confidence } / Double(characters.count)
    }
}

/// PP-OCR's line recognizer (SVTR + CTC head): a line image 48 px high in, per-column character
/// probabilities out, decoded greedily (best class per column, repeats merged, blanks dropped).
///
/// Pre-processing follows PaddleOCR's `resize_norm_img`: height 48, width by aspect ratio, values to
/// [-1, 1], padded with zeros (mid-grey) to the batch's widest line, never narrower than 320.
public struct TextRecognizer: Sendable {
    public static let inputHeight = 48
    let session: OnnxSession
    /// Class 0 is the CTC blank; 1...n the dictionary's lines; n + 1 a space.
    let alphabet: [String]
    /// Lines wider than this (in input pixels) are squeezed: a bound on time for absurd crops.
    public var maxWidth = 1600
    public var minWidth = 320

    public init(session: OnnxSession, dictionaryPath: String) throws(OnnxRuntimeError) {
        guard let text = try? String(contentsOfFile: dictionaryPath, encoding: .utf8) else {
            throw .modelMissing(dictionaryPath)
        }
        self.session = session
        self.alphabet = Self.alphabet(dictionary: text)
    }

    /// The classes a dictionary file gives: blank, its lines, space. Lines are cut on scalars because
    /// PP-OCRv6's dictionary ends them in "\r\n", which Swift holds as one Character: cut on Characters, its
    /// 18,708 entries came out as one line.
    static func alphabet(dictionary text: String) -> [String] {
        var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(Substring(line.last == "\r" ? line.dropLast() : line))
        }
        if lines.last == "" { lines.removeLast() }
        return [""] + lines + [" "]
    }

    /// Reads each image (already cut out and turned so the text runs left to right), in one batch.
    public func recognize(_ images: [RGBImage]) throws(OnnxRuntimeError) -> [RecognizedText] {
        let usable = images.map { $0.width >= 2 && $0.height >= 2 }
        guard usable.contains(true) else { return images.map { _ in RecognizedText(characters: []) } }
        let h = Self.inputHeight
        let widths = images.map { image -> Int in
            guard image.width >= 2, image.height >= 2 else { return 0 }
            return min(maxWidth, max(8, Int((Double(h) * Double(image.width) / Double(image.height)).rounded(.up))))
        }
        let batchWidth = max(minWidth, widths.max()!)
        let plane = h * batchWidth
        var input = [Float](repeating: 0, count: images.count * 3 * plane)
        for (b, image) in images.enumerated() where widths[b] > 0 {
            let resized = image.resized(width: widths[b], height: h)
            resized.pixels.withUnsafeBufferPointer { p in
                input.withUnsafeMutableBufferPointer { o in
                    let base = b * 3 * plane
                    for y in 0..<h {
                        for x in 0..<widths[b] {
                            let s = 3 * (y * widths[b] + x)
                            for c in 0..<3 {
                                // BGR, (v / 255 - 0.5) / 0.5
                                o[base + c * plane + y * batchWidth + x] = Float(p[s + 2 - c]) / 127.5 - 1
                            }
                        }
                    }
                }
            }
        }
        let output = try session.run(Tensor(shape: [images.count, 3, h, batchWidth], values: input))
        guard output.shape.count == 3, output.shape[0] == images.count, output.shape[2] == alphabet.count else {
            throw .badInput("text recognizer answered with shape \(output.shape); the dictionary has \(alphabet.count) classes")
        }
        let steps = output.shape[1], classes = output.shape[2]
        return (0..<images.count).map { b in
            guard widths[b] > 0 else { return RecognizedText(characters: []) }
            // Columns past the line's own width saw only padding.
            let used = min(steps, Int((Double(steps) * Double(widths[b]) / Double(batchWidth)).rounded(.up)) + 1)
            return output.values.withUnsafeBufferPointer { v in
                decode(v, offset: b * steps * classes, steps: steps, used: used, classes: classes, fractionOfWidth: Double(batchWidth) / Double(widths[b]))
            }
        }
    }

    /// Greedy CTC decoding of one line's columns.
    func decode(_ v: UnsafeBufferPointer<Float>, offset: Int, steps: Int, used: Int, classes: Int, fractionOfWidth: Double) -> RecognizedText {
        var chars: [RecognizedText.Character] = []
        var previous = -1
        for t in 0..<used {
            let row = offset + t * classes
            var best = 0
            var bestP = v[row]
            for c in 1..<classes where v[row + c] > bestP {
                best = c
                bestP = v[row + c]
            }
            defer { previous = best }
            guard best != 0, best != previous else { continue }
            let position = min(1, (Double(t) + 0.5) / Double(steps) * fractionOfWidth)
            chars.append(.init(text: alphabet[best], confidence: Double(bestP), position: position))
        }
        return RecognizedText(characters: chars)
    }
}
