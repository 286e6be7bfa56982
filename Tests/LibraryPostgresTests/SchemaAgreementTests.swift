import Foundation
import GRDB
import Library
import LibraryCore
@testable import LibraryPostgres
import LibraryTestSupport
import Testing

/// The schema is written three times: the SQLite migrations (`Schema.swift`), the PostgreSQL ones
/// (`PostgresSchema.swift`, in SQL), and the list `library migrate` copies (`LibraryDump.tables`). Migrations are
/// frozen once shipped, so they cannot be generated from one description; instead this reads the schema each
/// engine ends up with after migrating and holds both to the dump's list. A column added to one and not the
/// others, or given another type, fails here rather than in a user's `library migrate`.
@Suite struct SchemaAgreementTests {
    /// One column as an engine keeps it, reduced to what the dump and the stores rely on.
    struct Column: Equatable, CustomStringConvertible {
        var kind: LibraryDump.Kind?
        var notNull: Bool
        var description: String { "\(kind.map { "\($0)" } ?? "unknown type")\(notNull ? " NOT NULL" : "")" }
    }
    /// Table → column → how it is kept; names lower-cased, as PostgreSQL folds unquoted identifiers.
    typealias Layout = [String: [String: Column]]

    /// Tables only one engine has, each for a stated reason; anything else must be in the dump.
    static let ownTables: [Engine: Set<String>] = [
        // GRDB's migration log and SQLite's AUTOINCREMENT counters.
        .sqlite: ["grdb_migrations", "sqlite_sequence"],
        // The migration log; crops in the database (dumped as `crops`, not as a table); team claims, which expire;
        // the answers of writes applied at most once, kept a day for a retry after a lost COMMIT.
        .postgres: ["shelfscanmigration", "cropimage", "photoclaim", "reviewclaim", "appliedrequest"],
    ]

    static func sqliteLayout(_ path: String) throws -> Layout {
        let db = try DatabaseQueue(path: path)
        return try db.read { db in
            var layout: Layout = [:]
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") {
                for row in try Row.fetchAll(db, sql: "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?)", arguments: [table]) {
                    let kind: LibraryDump.Kind? = switch (row["type"] as String).uppercased() {
                    case "INTEGER": .integer
                    case "DOUBLE": .real
                    case "TEXT": .text
                    case "DATETIME": .date
                    case "BOOLEAN": .boolean
                    default: nil
                    }
                    // SQLite reports a primary key column as nullable; both engines refuse NULL there in practice.
                    let notNull = (row["notnull"] as Int) != 0 || (row["pk"] as Int) != 0
                    layout[table.lowercased(), default: [:]][(row["name"] as String).lowercased()] = Column(kind: kind, notNull: notNull)
                }
            }
            return layout
        }
    }

    static func postgresLayout(_ store: PostgresLibraryStore) async throws -> Layout {
        try await store.read { tx in
            var layout: Layout = [:]
            let rows = try tx.rows("""
                SELECT table_name::text, column_name::text, data_type::text, is_nullable::text
                FROM information_schema.columns WHERE table_schema = current_schema()
                """)
            for row in rows {
                let (table, column, type, nullable) = try row.decode((String, String, String, String).self)
                let kind: LibraryDump.Kind? = switch type {
                case "integer", "bigint": .integer
                case "double precision": .real
                case "text": .text
                case "timestamp with time zone": .date
                case "boolean": .boolean
                default: nil
                }
                layout[table, default: [:]][column] = Column(kind: kind, notNull: nullable == "NO")
            }
            return layout
        }
    }

    static func layout(_ engine: Engine) async throws -> Layout {
        let store = try await engine.makeStore()
        switch engine {
        case .sqlite: return try sqliteLayout(try #require(store.path))
        case .postgres: return try await postgresLayout(try #require(store as? PostgresLibraryStore))
        }
    }

    @Test(arguments: Engine.available)
    func everyTableAndColumnIsTheDumpsWithTheSameKind(engine: Engine) async throws {
        let layout = try await Self.layout(engine)
        let dumped = Set(LibraryDump.tables.map { $0.name.lowercased() })
        #expect(Set(layout.keys).subtracting(Self.ownTables[engine]!) == dumped, "tables on \(engine) beside the dump's")
        for table in LibraryDump.tables {
            let columns = try #require(layout[table.name.lowercased()], "\(table.name) on \(engine)")
            let expected = Dictionary(uniqueKeysWithValues: table.columns.map { ($0.name.lowercased(), $0.kind) })
            #expect(columns.mapValues(\.kind) == expected.mapValues { Optional($0) }, "\(table.name) on \(engine)")
        }
    }

    /// Beyond the dump's kinds: a column one engine requires and the other leaves optional would let a row that
    /// one engine took fail to copy into the other.
    @Test(.enabled(if: Engine.available.contains(.postgres), "needs SHELFSCAN_TEST_POSTGRES_URL (scripts/test starts a server)"))
    func bothEnginesRequireTheSameColumns() async throws {
        let sqlite = try await Self.layout(.sqlite), postgres = try await Self.layout(.postgres)
        for table in LibraryDump.tables {
            let name = table.name.lowercased()
            for column in table.columns.map({ $0.name.lowercased() }) {
                #expect(sqlite[name]?[column]?.notNull == postgres[name]?[column]?.notNull,
                        "\(table.name).\(column): SQLite \(sqlite[name]?[column].map(\.description) ?? "none"), PostgreSQL \(postgres[name]?[column].map(\.description) ?? "none")")
            }
        }
    }
}
