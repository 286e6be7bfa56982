import Foundation

/// RFC 4180 CSV for exports, quoted only where it must be so spreadsheets and other trackers read it as
/// `CSVReader` does.
public enum CSVWriter {
    /// One field, quoted when it must be. Looks at scalars, not Characters: "\r\n" is one Character that is
    /// neither "\r" nor "\n", and a note with Windows line ends would otherwise go out unquoted.
    public static func escape(_ field: String) -> String {
        guard field.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
                || field.hasPrefix(" ") || field.hasSuffix(" ") else {
            return field
        }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Rows joined with CRLF, as RFC 4180 says.
    public static func write(_ rows: [[String]]) -> String {
        rows.map { $0.map(escape).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
    }
}
