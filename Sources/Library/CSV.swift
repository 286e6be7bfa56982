/// RFC 4180 CSV, as real exports write it: quoted fields with doubled quotes, commas and newlines inside
/// quotes, a UTF-8 BOM, CRLF or LF line ends. A broken record is reported with the line it starts on and
/// skipped; parsing resumes on the next line, so one bad row never costs the rest of the file.
public enum CSV {
    public struct Record: Sendable, Equatable {
        /// 1-based line of the file where the record starts.
        public var line: Int
        public var fields: [String]
    }

    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }
    }

    public static func parse(_ text: String) -> (records: [Record], problems: [Problem]) {
        var scalars = Array(text.unicodeScalars)
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        var records: [Record] = []
        var problems: [Problem] = []
        var i = 0
        var line = 1
        let n = scalars.count

        while i < n {
            let startLine = line, startIndex = i
            var fields: [String] = []
            var field = String.UnicodeScalarView()
            var inQuotes = false, wasQuoted = false, broken: String? = nil
            var endOfRecord = false
            while i < n && !endOfRecord {
                let c = scalars[i]
                if inQuotes {
                    if c == "\"" {
                        if i + 1 < n && scalars[i + 1] == "\"" { field.append("\""); i += 2; continue }
                        inQuotes = false; i += 1; continue
                    }
                    if c == "\n" { line += 1 }
                    if c == "\r" && i + 1 < n && scalars[i + 1] == "\n" { field.append("\r"); i += 1; continue }
                    field.append(c); i += 1; continue
                }
                switch c {
                case ",":
                    fields.append(String(field)); field = String.UnicodeScalarView(); wasQuoted = false; i += 1
                case "\"":
                    if field.isEmpty && !wasQuoted { inQuotes = true; wasQuoted = true }
                    else if broken == nil { broken = "a quote (\") inside an unquoted field; quote the whole field and double the quote" }
                    i += 1
                case "\r", "\n":
                    if c == "\r" && i + 1 < n && scalars[i + 1] == "\n" { i += 1 }
                    i += 1; line += 1; endOfRecord = true
                default:
                    if wasQuoted && broken == nil { broken = "text after a closing quote" }
                    field.append(c); i += 1
                }
            }
            if inQuotes {
                problems.append(Problem(line: startLine, message: "a quoted field is never closed"))
                // Resume right after the line the broken record started on.
                i = startIndex; line = startLine
                while i < n && scalars[i] != "\n" { i += 1 }
                i += 1; line += 1
                continue
            }
            fields.append(String(field))
            if let broken { problems.append(Problem(line: startLine, message: broken)); continue }
            if fields.count == 1 && fields[0].isEmpty { continue }  // blank line
            records.append(Record(line: startLine, fields: fields))
        }
        return (records, problems)
    }

    /// One field, quoted when it must be.
    public static func escape(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) || field.hasPrefix(" ") || field.hasSuffix(" ") else {
            return field
        }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Rows joined with CRLF, as RFC 4180 says.
    public static func write(_ rows: [[String]]) -> String {
        rows.map { $0.map(escape).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
    }
}
