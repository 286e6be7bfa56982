/// An RFC 4180 CSV reader that never gives up on a whole file because of one bad row: spreadsheet and
/// library-system exports are hand-edited, so a malformed record is reported with its line number and skipped.
///
/// Handles a UTF-8 BOM, CRLF / LF / CR line ends, quoted fields with embedded separators, newlines and doubled
/// quotes. Works on bytes: every byte that matters here (`"`, `,`, CR, LF) is ASCII, so multi-byte UTF-8
/// sequences pass through untouched.
public struct CSVReader: Sendable {
    /// One parsed record and the 1-based line on which it starts.
    public struct Record: Sendable, Equatable {
        public var line: Int
        public var fields: [String]
    }

    /// A record that could not be parsed, and why.
    public struct Problem: Sendable, Equatable, Error {
        public var line: Int
        public var reason: String
    }

    public var separator: UInt8

    public init(separator: Character = ",") {
        self.separator = separator.asciiValue ?? UInt8(ascii: ",")
    }

    /// Parses every record, blank lines skipped. Malformed records (a stray character after a closing quote,
    /// a quote left open at the end of the input) come back as problems instead of records.
    public func parse(_ bytes: [UInt8]) -> (records: [Record], problems: [Problem]) {
        var records: [Record] = []
        var problems: [Problem] = []
        let quote = UInt8(ascii: "\""), cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        let sep = separator
        var i = 0
        let n = bytes.count
        if n >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        var line = 1

        var fields: [String] = []
        var field: [UInt8] = []
        var recordLine = 1
        var broken: String? = nil
        var fieldStarted = false  // distinguishes an empty last field ("a,") from a blank line

        func endRecord() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            if let reason = broken {
                problems.append(Problem(line: recordLine, reason: reason))
            } else if !(fields.count == 1 && fields[0].isEmpty && !fieldStarted) {
                records.append(Record(line: recordLine, fields: fields))
            }
            fields.removeAll(keepingCapacity: true)
            broken = nil
            fieldStarted = false
        }

        while i < n {
            let b = bytes[i]
            if field.isEmpty && b == quote && (fields.isEmpty ? !fieldStarted : lastWasSeparator(bytes, i, sep)) {
                // Quoted field: runs to the next lone quote; "" is a literal quote.
                fieldStarted = true
                let openLine = line
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
                    broken = broken ?? "quoted field opened on line \(openLine) is never closed"
                    break
                }
                // After the closing quote only a separator or a line end may follow.
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
                fieldStarted = true
                i += 1
            } else if b == lf || b == cr {
                i += (b == cr && i + 1 < n && bytes[i + 1] == lf) ? 2 : 1
                endRecord()
                line += 1
                recordLine = line
            } else {
                fieldStarted = true
                field.append(b)
                i += 1
            }
        }
        if fieldStarted || !field.isEmpty || !fields.isEmpty || broken != nil { endRecord() }
        return (records, problems)
    }

    /// A quote opens a quoted field only at the very start of a field.
    private func lastWasSeparator(_ bytes: [UInt8], _ i: Int, _ sep: UInt8) -> Bool {
        i > 0 && bytes[i - 1] == sep
    }
}
