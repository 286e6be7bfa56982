import Foundation

/// One broken rule, worded so a reviewer knows what to type instead.
public struct ValidationIssue: Error, Sendable, Equatable, CustomStringConvertible {
    public var field: String
    public var message: String
    public init(field: String, message: String) { self.field = field; self.message = message }
    public var description: String { "\(field): \(message)" }
}

/// Every rule that failed, so a form can show them all at once.
public struct ValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var issues: [ValidationIssue]
    public init(_ issues: [ValidationIssue]) { self.issues = issues }
    public var description: String { issues.map(\.description).joined(separator: "; ") }
}

/// The field rules of seeds 000-002 (seed 002 wins where they differ: notes <= 2,000).
/// Each returns nil when the value is fine, so callers can use them one field at a time (inline prompts).
public enum Rules {
    public static let titleMaxLength = 512
    public static let authorNameMaxLength = 100
    public static let descriptionMaxLength = 10_000
    public static let maxGenres = 10
    public static let genreMaxLength = 50
    public static let maxTags = 20
    public static let tagMaxLength = 50
    public static let notesMaxLength = 2_000

    public static func title(_ title: String) -> ValidationIssue? {
        let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return ValidationIssue(field: "title", message: "must not be empty") }
        if trimmed.count > titleMaxLength {
            return ValidationIssue(field: "title", message: "must be at most \(titleMaxLength) characters (has \(trimmed.count))")
        }
        return nil
    }

    public static func authorName(_ name: String) -> ValidationIssue? {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return ValidationIssue(field: "author", message: "an author name must not be empty") }
        if trimmed.count > authorNameMaxLength {
            return ValidationIssue(field: "author", message: "an author name must be at most \(authorNameMaxLength) characters (has \(trimmed.count))")
        }
        return nil
    }

    public static func authors(_ names: [String], required: Bool) -> ValidationIssue? {
        if required && names.isEmpty { return ValidationIssue(field: "authors", message: "a verified book needs at least one author") }
        return names.lazy.compactMap(authorName).first
    }

    public static func description(_ text: String?) -> ValidationIssue? {
        guard let text, text.count > descriptionMaxLength else { return nil }
        return ValidationIssue(field: "description", message: "must be at most \(descriptionMaxLength) characters (has \(text.count))")
    }

    public static func pageCount(_ count: Int?) -> ValidationIssue? {
        guard let count, count <= 0 else { return nil }
        return ValidationIssue(field: "pageCount", message: "must be a positive number of pages (got \(count))")
    }

    public static func genres(_ genres: [String]) -> ValidationIssue? {
        if genres.count > maxGenres { return ValidationIssue(field: "genres", message: "at most \(maxGenres) genres (has \(genres.count))") }
        if let long = genres.first(where: { $0.count > genreMaxLength }) {
            return ValidationIssue(field: "genres", message: "each genre at most \(genreMaxLength) characters (\"\(long.prefix(20))…\" has \(long.count))")
        }
        return nil
    }

    public static func tags(_ tags: [String]) -> ValidationIssue? {
        if tags.count > maxTags { return ValidationIssue(field: "tags", message: "at most \(maxTags) tags (has \(tags.count))") }
        for tag in tags {
            let t = tag.trimmingCharacters(in: .whitespacesAndNewlines)
            if t.isEmpty { return ValidationIssue(field: "tags", message: "a tag must not be empty") }
            if t.count > tagMaxLength { return ValidationIssue(field: "tags", message: "each tag at most \(tagMaxLength) characters (has \(t.count))") }
        }
        return nil
    }

    public static func rating(_ rating: Int?) -> ValidationIssue? {
        guard let rating, !(1...5).contains(rating) else { return nil }
        return ValidationIssue(field: "rating", message: "must be 1 to 5 stars (got \(rating))")
    }

    public static func personalRating(_ rating: Double?) -> ValidationIssue? {
        guard let rating, !(rating >= 0 && rating <= 5) else { return nil }
        return ValidationIssue(field: "personalRating", message: "must be between 0.0 and 5.0 (got \(rating))")
    }

    public static func notes(_ notes: String?) -> ValidationIssue? {
        guard let notes, notes.count > notesMaxLength else { return nil }
        return ValidationIssue(field: "notes", message: "must be at most \(notesMaxLength) characters (has \(notes.count))")
    }

    public static func isbn(_ isbn: String?) -> ValidationIssue? {
        guard let isbn else { return nil }
        guard let n = ISBN.normalize(isbn), n.count == 10 || n.count == 13 else {
            return ValidationIssue(field: "isbn", message: "must be 10 or 13 digits (got \"\(isbn)\")")
        }
        if n.count == 10 && !ISBN.isValidISBN10(n) { return ValidationIssue(field: "isbn", message: "ISBN-10 check digit is wrong in \(isbn)") }
        if n.count == 13 && !ISBN.isValidISBN13(n) { return ValidationIssue(field: "isbn", message: "ISBN-13 check digit is wrong in \(isbn)") }
        return nil
    }
}
