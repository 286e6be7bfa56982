import Foundation
import BookModel

/// One book as a vision model reported it.
struct AnsweredBook: Sendable, Equatable {
    var index: Int?
    var title: String
    var authors: [String]
    var confidence: Double?
    var box: JSONValue?
}

/// Tolerant reading of what vision models actually send back: JSON, JSON in code fences, prose around
/// JSON, a bare array, an object keyed by index, numbers as strings, one author as a string. Whatever
/// is valid is kept; anything unusable is dropped item by item so it costs only its own crop.
enum AnswerParser {
    /// The books in `content`; throws only when no JSON with books can be found at all.
    static func books(in content: String) throws(ReaderError) -> [AnsweredBook] {
        var sawJSON = false
        var found: [JSONValue]?
        forEachJSON(in: content) { json in
            sawJSON = true
            found = bookItems(json)
            return found != nil
        }
        guard let items = found else {
            throw .malformedAnswer(sawJSON ? "JSON without a list of books: \(snippet(content))" : "no JSON in reply: \(snippet(content))")
        }
        return items.compactMap(book(from:))
    }

    /// Offers each JSON object or array in `text` to `body` until it returns true: the whole text, a fenced
    /// block, then every balanced `{...}`/`[...]` span from left to right.
    static func forEachJSON(in text: String, _ body: (JSONValue) -> Bool) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if let whole = JSONValue.parse(trimmed), whole.objectValue != nil || whole.arrayValue != nil, body(whole) { return }
        if let fenced = fencedBlock(trimmed), let json = JSONValue.parse(fenced), body(json) { return }
        let scalars = Array(trimmed.unicodeScalars)
        var start = 0
        while start < scalars.count {
            if scalars[start] == "{" || scalars[start] == "[", let end = balancedEnd(scalars, from: start) {
                var view = String.UnicodeScalarView()
                view.append(contentsOf: scalars[start...end])
                if let json = JSONValue.parse(String(view)) {
                    if body(json) { return }
                    start = end + 1  // a parsed span is not searched again from inside
                    continue
                }
            }
            start += 1
        }
    }

    private static func fencedBlock(_ text: String) -> String? {
        guard let open = text.range(of: "```") else { return nil }
        var rest = text[open.upperBound...]
        if let newline = rest.firstIndex(of: "\n") { rest = rest[rest.index(after: newline)...] }  // skip "json"
        guard let close = rest.range(of: "```") else { return nil }
        return String(rest[..<close.lowerBound])
    }

    /// Index of the bracket closing the one at `start`, skipping brackets inside strings.
    private static func balancedEnd(_ s: [Unicode.Scalar], from start: Int) -> Int? {
        var depth = 0
        var inString = false
        var escaped = false
        var i = start
        while i < s.count {
            let c = s[i]
            if inString {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == "\"" { inString = false }
            } else if c == "\"" {
                inString = true
            } else if c == "{" || c == "[" {
                depth += 1
            } else if c == "}" || c == "]" {
                depth -= 1
                if depth == 0 { return i }
            }
            i += 1
        }
        return nil
    }

    private static func bookItems(_ json: JSONValue) -> [JSONValue]? {
        if let array = json.arrayValue { return array }
        guard let object = json.objectValue else { return nil }
        for key in ["books", "spines", "results", "readings", "items"] {
            if let array = object[key]?.arrayValue { return array }
        }
        // {"0": {...}, "1": {...}}
        let keyed = object.compactMap { key, value -> JSONValue? in
            guard let i = Int(key), var o = value.objectValue else { return nil }
            o["index"] = .number(Double(i))
            return .object(o)
        }
        if !keyed.isEmpty { return keyed }
        // A single book object.
        if object["title"] != nil { return [json] }
        return nil
    }

    private static func book(from item: JSONValue) -> AnsweredBook? {
        guard let o = item.objectValue else { return nil }
        let title: String
        switch o["title"] {
        case .string(let s): title = s.trimmingCharacters(in: .whitespacesAndNewlines)
        case .null, nil: title = ""
        default: return nil  // wrong type: this item is unusable
        }
        var authors: [String] = []
        switch o["authors"] ?? o["author"] {
        case .array(let a): authors = a.compactMap(\.stringValue)
        case .string(let s): authors = [s]
        default: break
        }
        authors = authors.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        let confidence = o["confidence"]?.doubleValue.map { min(1, max(0, $0)) }
        let index = (o["index"] ?? o["id"] ?? o["image"])?.intValue
        return AnsweredBook(index: index, title: title, authors: authors, confidence: confidence, box: o["box"])
    }

    static func snippet(_ text: String, limit: Int = 80) -> String {
        let flat = text.replacingOccurrences(of: "\n", with: " ")
        return flat.count <= limit ? "\"\(flat)\"" : "\"\(flat.prefix(limit))…\""
    }
}
