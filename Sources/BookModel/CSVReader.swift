import Foundation

/// The one CSV reader (catalogues, library imports, evaluation annotations). RFC 4180 as real exports write
/// it, and it never gives up on a whole file because of one bad row: spreadsheet and library-system exports
/// are hand-edited, so a malformed record is reported with the line it starts on and skipped, and parsing
/// resumes after it.
///
/// Handles a UTF-8 BOM, CRLF / LF / CR line ends, quoted fields with embedded separators, newlines and doubled
/// quotes. Works on bytes: every byte that matters here (`"`, the separator, CR, LF) is ASCII, so multi-byte
/// UTF-8 sequences pass through untouched. `read(_:)` also takes files as they are found on disk (Windows-1252,
/// `;` or tab separated); `parse(_:)` takes UTF-8 with a known separator.
public struct CSVReader: Sendable {
    /// One parsed record and the 1-based line on which it starts.
    public struct Record: Sendable, Equatable {
        public var line: Int
        public var fields: [String]

        public init(line: Int, fields: [String]) {
            self.line = line
            self.fields = fields
        }
    }

    /// A record that could not be parsed, and why.
    public struct Problem: Sendable, Equatable, Error, CustomStringConvertible {
        public var line: Int
        public var reason: String
        public var description: String { "line \(line): \(reason)" }

        public init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }
    }

    public var separator: UInt8

    public init(separator: Character = ",") {
        self.separator = separator.asciiValue ?? UInt8(ascii: ",")
    }

    /// Reads an export as it was saved: re-encoded to UTF-8 when it is not, with the separator its header uses.
    public static func read(_ raw: [UInt8]) -> (records: [Record], problems: [Problem]) {
        let bytes = utf8(raw)
        return CSVReader(separator: sniffSeparator(bytes)).parse(bytes)
    }

    /// Parses every record, blank lines skipped. Malformed records (a stray character after a closing quote,
    /// a quote that is never closed) come back as problems instead of records. A never-closed quote would
    /// otherwise swallow the rest of the file, so parsing resumes on the line after the one it opened on.
    /// A quote inside an unquoted field is literal (`12" ruler`), as spreadsheets read it.
    public func parse(_ bytes: [UInt8]) -> (records: [Record], problems: [Problem]) {
        var records: [Record] = []
        var problems: [Problem] = []
        let quote = UInt8(ascii: "\""), cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        let sep = separator
        let n = bytes.count
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var line = 1
        var field: [UInt8] = []

        record: while i < n {
            let recordLine = line
            var fields: [String] = []
            field.removeAll(keepingCapacity: true)
            var broken: String? = nil
            var atFieldStart = true
            var blank = true  // distinguishes an empty last field ("a,") from a blank line

            while i < n {
                let b = bytes[i]
                if atFieldStart && b == quote {
                    // Quoted field: runs to the next lone quote; "" is a literal quote.
                    atFieldStart = false
                    blank = false
                    let openLine = line, openIndex = i
                    i += 1
                    var closed = false
                    while i < n {
                        let c = bytes[i]
                        if c == quote {
                            if i + 1 < n && bytes[i + 1] == quote { field.append(quote); i += 2; continue }
                            i += 1
                            closed = true
                            break
                        }
                        if c == lf || (c == cr && !(i + 1 < n && bytes[i + 1] == lf)) { line += 1 }
                        field.append(c)
                        i += 1
                    }
                    if !closed {
                        let reason = openLine == recordLine ? "a quoted field is never closed"
                            : "a quoted field opened on line \(openLine) is never closed"
                        problems.append(Problem(line: recordLine, reason: reason))
                        i = openIndex
                        while i < n, bytes[i] != lf, bytes[i] != cr { i += 1 }
                        i += (i + 1 < n && bytes[i] == cr && bytes[i + 1] == lf) ? 2 : 1
                        line = openLine + 1
                        continue record
                    }
                    // After the closing quote only blanks, then a separator or a line end, may follow.
                    var junk = false
                    while i < n, bytes[i] != sep, bytes[i] != lf, bytes[i] != cr {
                        if bytes[i] != UInt8(ascii: " ") && bytes[i] != UInt8(ascii: "\t") { junk = true }
                        i += 1
                    }
                    if junk { broken = broken ?? "text after a closing quote" }
                    continue
                }
                if b == sep {
                    fields.append(String(decoding: field, as: UTF8.self))
                    field.removeAll(keepingCapacity: true)
                    atFieldStart = true
                    blank = false
                    i += 1
                } else if b == lf || b == cr {
                    i += (b == cr && i + 1 < n && bytes[i + 1] == lf) ? 2 : 1
                    line += 1
                    break
                } else {
                    atFieldStart = false
                    blank = false
                    field.append(b)
                    i += 1
                }
            }
            fields.append(String(decoding: field, as: UTF8.self))
            if let reason = broken {
                problems.append(Problem(line: recordLine, reason: reason))
            } else if !blank {
                records.append(Record(line: recordLine, fields: fields))
            }
        }
        return (records, problems)
    }

    /// Spreadsheets in Spanish or Catalan locales save "CSV" with semicolons, some tools with tabs: pick
    /// whichever of `,` `;` tab is most common on the header line (outside quotes).
    static func sniffSeparator(_ bytes: [UInt8]) -> Character {
        var counts: [UInt8: Int] = [UInt8(ascii: ","): 0, UInt8(ascii: ";"): 0, UInt8(ascii: "\t"): 0]
        var quoted = false
        for b in bytes {
            if b == UInt8(ascii: "\"") { quoted.toggle() }
            if !quoted && (b == UInt8(ascii: "\n") || b == UInt8(ascii: "\r")) { break }
            if !quoted, counts[b] != nil { counts[b]! += 1 }
        }
        let best = counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key != UInt8(ascii: ",")) }
        guard let best, best.value > 0 else { return "," }
        return Character(UnicodeScalar(best.key))
    }

    /// Older Windows exports are Windows-1252, not UTF-8; re-encode them rather than show mojibake.
    static func utf8(_ bytes: [UInt8]) -> [UInt8] {
        if String(bytes: bytes, encoding: .utf8) != nil { return bytes }
        guard let text = String(bytes: bytes, encoding: .windowsCP1252) ?? String(bytes: bytes, encoding: .isoLatin1) else {
            return bytes
        }
        return Array(text.utf8)
    }
}
