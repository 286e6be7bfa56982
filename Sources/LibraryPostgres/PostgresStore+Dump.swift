import Foundation
import LibraryCore
import NIOCore
import PostgresNIO

extension PostgresLibraryStore {
    public func dump() throws -> LibraryDump {
        try transaction(replay: .safe) {
            // One snapshot for every table: nothing filed meanwhile lands half in the copy.
            try query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            var dump = LibraryDump()
            for table in LibraryDump.tables {
                let sql = "SELECT \(table.columns.map(\.name).joined(separator: ", ")) FROM \(table.name) ORDER BY \(table.orderBy)"
                dump.rows[table.name] = try query(PostgresQuery(unsafeSQL: sql)).map { row in
                    let cells = row.makeRandomAccess()
                    return try table.columns.indices.map { try Self.value(cells[$0], table.columns[$0].kind) }
                }
            }
            // Only the crops of Works that exist: a crop kept for undo after its Work went is not part of the library.
            for row in try query("""
                SELECT c.workId, c.jpeg FROM cropImage c JOIN work w ON w.id = c.workId AND w.cropFile IS NOT NULL ORDER BY c.workId
                """) {
                let (id, bytes) = try row.decode((Int64, ByteBuffer).self)
                dump.crops[id] = Array(bytes.readableBytesView)
            }
            return dump
        }
    }

    public func restore(_ dump: LibraryDump) throws {
        try requireEmptyForRestore()
        try transaction {
            for table in LibraryDump.tables {
                let columns = table.columns.map(\.name)
                let sql = "INSERT INTO \(table.name) (\(columns.joined(separator: ", "))) VALUES (\(columns.indices.map { "$\($0 + 1)" }.joined(separator: ", ")))"
                for row in dump.rows[table.name] ?? [] {
                    var binds = PostgresBindings(capacity: row.count)
                    for (i, value) in row.enumerated() { Self.bind(value, table.columns[i].kind, into: &binds) }
                    try query(PostgresQuery(unsafeSQL: sql, binds: binds))
                }
                // bigserial keys go on after the copied IDs.
                if columns.first == "id" {
                    try query(PostgresQuery(unsafeSQL: """
                        SELECT setval(pg_get_serial_sequence('\(table.name.lowercased())', 'id'), COALESCE(MAX(id), 1), MAX(id) IS NOT NULL) FROM \(table.name)
                        """))
                }
            }
            for (id, bytes) in dump.crops.sorted(by: { $0.key < $1.key }) {
                try query("INSERT INTO cropImage (workId, jpeg) VALUES (\(id), \(ByteBuffer(bytes: bytes)))")
            }
        }
    }
}
