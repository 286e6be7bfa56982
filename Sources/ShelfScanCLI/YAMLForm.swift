/// The edit form as a small YAML document for $VISUAL/$EDITOR. Only this shape is read back (scalars and
/// the authors list), so no YAML library is needed: anything else on a line is kept as text.
enum YAMLForm {
    static func render(_ fields: [(ReviewSession.EditForm.Field, String)]) -> String {
        var out = """
            # Edit the book, save and close the editor. Lines starting with # are ignored.
            # Authors: one per line, each after "- ". ISBN and year may stay empty.

            """
        for (field, value) in fields {
            if field == .authors {
                out += "authors:\n"
                for name in value.split(separator: ";") { out += "  - \(quote(name.trimmingCharacters(in: .whitespaces)))\n" }
            } else {
                out += "\(field.rawValue): \(quote(value))\n"
            }
        }
        return out
    }

    /// Field values by name; authors joined with "; " as the inline form has them.
    static func parse(_ text: String) -> [ReviewSession.EditForm.Field: String] {
        var values: [ReviewSession.EditForm.Field: String] = [:]
        var authors: [String] = []
        var inAuthors = false
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("#") || trimmed.isEmpty { continue }
            if inAuthors, trimmed.hasPrefix("-") {
                let name = unquote(String(trimmed.dropFirst()).trimmingCharacters(in: .whitespaces))
                if !name.isEmpty { authors.append(name) }
                continue
            }
            inAuthors = false
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = unquote(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            if key == "authors" || key == "author" {
                inAuthors = true
                if !value.isEmpty { authors.append(value) }
            } else if let field = ReviewSession.EditForm.Field(rawValue: key) {
                values[field] = value
            }
        }
        values[.authors] = authors.joined(separator: "; ")
        return values
    }

    /// Double-quoted when YAML would misread the plain text (a colon, a leading dash, quotes, #).
    static func quote(_ s: String) -> String {
        let risky = s.contains(": ") || s.contains(" #") || s.hasPrefix("-") || s.hasPrefix("\"") || s.hasPrefix("'")
            || s.hasPrefix("#") || s.hasSuffix(":")
        guard risky else { return s }
        return "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    static func unquote(_ s: String) -> String {
        if s.count >= 2, s.hasPrefix("\""), s.hasSuffix("\"") {
            return String(s.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"").replacingOccurrences(of: "\\\\", with: "\\")
        }
        if s.count >= 2, s.hasPrefix("'"), s.hasSuffix("'") {
            return String(s.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
        }
        return s
    }
}
