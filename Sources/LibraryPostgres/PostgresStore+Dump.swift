import Foundation
import LibraryCore
import NIOCore
import PostgresNIO

extension PostgresLibraryStore {
    public func dump() async throws -> LibraryDump {
        try await transaction(replay: .safe) { tx in
            // One snapshot for every table: nothing filed meanwhile lands half in the copy.
            try tx.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            var dump = LibraryDump()
            for table in LibraryDump.tables {
                let sql = "SELECT \(table.columns.map(\.name).joined(separator: ", ")) FROM \(table.name) ORDER BY \(table.orderBy)"
                dump.rows[table.name] = try tx.query(PostgresQuery(unsafeSQL: sql)).map { row in
                    let cells = row.makeRandomAccess()
                    return try table.columns.indices.map { try PostgresTransaction.value(cells[$0], table.columns[$0].kind) }
                }
            }
            // Only the crops of Works that exist: a crop kept for undo after its Work went is not part of the library.
            for row in try tx.query("""
                SELECT c.workId, c.jpeg FROM cropImage c JOIN work w ON w.id = c.workId AND w.cropFile IS NOT NULL ORDER BY c.workId
                """) {
                let (id, bytes) = try row.decode((Int64, ByteBuffer).self)
                dump.crops[id] = Array(bytes.readableBytesView)
            }
            return dump
        }
    }

    public func restore(_ dump: LibraryDump) async throws {
        try await requireEmptyForRestore()
        try await transaction { tx in
            for table in LibraryDump.tables {
                let columns = table.columns.map(\.name)
                let sql = "INSERT INTO \(table.name) (\(columns.joined(separator: ", "))) VALUES (\(columns.indices.map { "$\($0 + 1)" }.joined(separator: ", ")))"
                for row in dump.rows[table.name] ?? [] {
                    var binds = PostgresBindings(capacity: row.count)
                    for (i, value) in row.enumerated() { PostgresTransaction.bind(value, table.columns[i].kind, into: &binds) }
                    try tx.query(PostgresQuery(unsafeSQL: sql, binds: binds))
                }
                // bigserial keys go on after the copied IDs.
                if columns.first == "id" {
                    try tx.query(PostgresQuery(unsafeSQL: """
                        SELECT setval(pg_get_serial_sequence('\(table.name.lowercased())', 'id'), COALESCE(MAX(id), 1), MAX(id) IS NOT NULL) FROM \(table.name)
                        """))
                }
            }
            for (id, bytes) in dump.crops.sorted(by: { $0.key < $1.key }) {
                try tx.query("INSERT INTO cropImage (workId, jpeg) VALUES (\(id), \(ByteBuffer(bytes: bytes)))")
            }
        }
    }
}
