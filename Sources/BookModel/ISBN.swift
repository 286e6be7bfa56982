/// ISBN-10 and ISBN-13 with their check digits. Stored without dashes or spaces (seed 000/001).
public enum ISBN {
    /// Digits only (and a final X for ISBN-10), or nil when the text cannot be an ISBN at all.
    public static func normalize(_ text: String) -> String? {
        var out = ""
        for ch in text where !(ch == "-" || ch == " " || ch == "\u{2010}" || ch == "\u{2011}") {
            if ch.isASCII && ch.isNumber { out.append(ch) } else if ch == "x" || ch == "X" { out.append("X") } else { return nil }
        }
        return out.isEmpty ? nil : out
    }

    public static func isValidISBN10(_ isbn: String) -> Bool {
        let chars = Array(isbn)
        guard chars.count == 10 else { return false }
        var sum = 0
        for (i, ch) in chars.enumerated() {
            let value: Int
            if let d = ch.wholeNumberValue, ch.isASCII { value = d } else if ch == "X" && i == 9 { value = 10 } else { return false }
            sum += value * (10 - i)
        }
        return sum % 11 == 0
    }

    public static func isValidISBN13(_ isbn: String) -> Bool {
        let digits = isbn.compactMap { $0.isASCII ? $0.wholeNumberValue : nil }
        guard digits.count == 13, isbn.count == 13 else { return false }
        let sum = digits.enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
        return sum % 10 == 0
    }

    /// Normalized and check-digit valid, else nil.
    public static func valid(_ text: String) -> String? {
        guard let n = normalize(text), isValidISBN10(n) || isValidISBN13(n) else { return nil }
        return n
    }

    /// The 978-prefixed ISBN-13 of a valid ISBN-10 (ISBN-13s are returned unchanged).
    public static func toISBN13(_ isbn: String) -> String? {
        if isValidISBN13(isbn) { return isbn }
        guard isValidISBN10(isbn) else { return nil }
        let core = "978" + isbn.prefix(9)
        let digits = core.compactMap(\.wholeNumberValue)
        let sum = digits.enumerated().reduce(0) { $0 + $1.element * ($1.offset % 2 == 0 ? 1 : 3) }
        return core + String((10 - sum % 10) % 10)
    }
}
