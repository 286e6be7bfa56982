import Foundation
import LibraryCore

/// Copies a whole library between engines (`shelfscan library migrate`): every table with its IDs, and every
/// crop, read in one transaction and written in one, into an empty library. Both sides are counted and
/// checksummed after the copy, so "nothing lost" is shown, not assumed.
public enum LibraryMigration {
    public struct Side: Sendable, Equatable {
        public var location: String
        public var counts: [String: Int]
        /// SHA-256 (hex) of `LibraryDump.canonicalBytes()`.
        public var checksum: String
    }

    public struct Report: Sendable {
        public var from: Side
        public var to: Side
        public var identical: Bool { from.counts == to.counts && from.checksum == to.checksum }
    }

    public static func checksum(_ dump: LibraryDump) -> String {
        ContentHash.sha256Hex(dump.canonicalBytes())
    }

    static func side(_ store: any LibraryStoring, _ dump: LibraryDump) -> Side {
        Side(location: store.locationDescription, counts: Dictionary(uniqueKeysWithValues: dump.counts.map { ($0.table, $0.rows) }),
             checksum: checksum(dump))
    }

    /// - Throws: `LibraryError` when either side cannot be opened, or the target is not empty.
    public static func copy(from source: any LibraryStoring, to target: any LibraryStoring) async throws -> Report {
        let dump = try await source.dump()
        try await target.restore(dump)
        return Report(from: side(source, dump), to: side(target, try await target.dump()))
    }
}
