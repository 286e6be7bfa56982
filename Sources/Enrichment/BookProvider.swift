import Foundation

/// A metadata service a reading can be enriched from. Raw values are what `--enrich` takes.
public enum BookProvider: String, Sendable, Codable, CaseIterable {
    case openlibrary
    case googlebooks

    /// Seed 004's provenance name (`primaryProvider`, `contributors`): 'openlibrary' | 'google'.
    public var provenanceName: String {
        switch self {
        case .openlibrary: "openlibrary"
        case .googlebooks: "google"
        }
    }

    /// The public service, used when no override is configured.
    public var defaultBaseURL: URL {
        switch self {
        case .openlibrary: URL(string: "https://openlibrary.org")!
        case .googlebooks: URL(string: "https://www.googleapis.com")!
        }
    }

    /// The environment variable that points this provider at a mirror or a local stand-in.
    public var baseURLVariable: String {
        switch self {
        case .openlibrary: "SHELFSCAN_OPENLIBRARY_URL"
        case .googlebooks: "SHELFSCAN_GOOGLEBOOKS_URL"
        }
    }

    /// "OpenLibrary", "Google Books": for messages a person reads.
    public var displayName: String {
        switch self {
        case .openlibrary: "OpenLibrary"
        case .googlebooks: "Google Books"
        }
    }

    /// Parses a comma list ("openlibrary,googlebooks") into a fallback chain, in order, without repeats.
    public static func chain(_ text: String) -> [BookProvider]? {
        var out: [BookProvider] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = part.trimmingCharacters(in: .whitespaces).lowercased()
            guard let p = BookProvider(rawValue: name) ?? (name == "google" ? .googlebooks : nil) else { return nil }
            if !out.contains(p) { out.append(p) }
        }
        return out.isEmpty ? nil : out
    }
}
