import Foundation

/// The one text normalization every comparison in ShelfScan uses (dedup, merge, catalogue matching,
/// reading accuracy), so that "Cien años de soledad", "CIEN AÑOS DE SOLEDAD." and "cien  anos de soledad"
/// are the same string everywhere.
public enum TextNormalization {
    /// Lowercased, diacritics folded (á→a, ç→c, ß→ss), punctuation turned to spaces, whitespace collapsed.
    public static func normalize(_ text: String) -> String {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .replacingOccurrences(of: "ß", with: "ss")
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in folded.unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) {
                if pendingSpace && !out.isEmpty { out.append(" ") }
                pendingSpace = false
                out.append(scalar)
            } else if scalar == "'" || scalar == "\u{2019}" {
                continue  // "don't" and "dont" compare equal
            } else {
                pendingSpace = true
            }
        }
        return String(out)
    }

    /// The normalized text split into words.
    public static func tokens(_ text: String) -> [String] {
        normalize(text).split(separator: " ").map(String.init)
    }
}
