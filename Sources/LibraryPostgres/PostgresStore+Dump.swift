import Foundation
import Library
import NIOCore
import PostgresNIO

extension PostgresLibraryStore {
    public func dump() throws -> LibraryDump {
        try transaction {
            // One snapshot for every table: nothing filed meanwhile lands half in the copy.
            try query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            var dump = LibraryDump()
            for table in LibraryDump.tables {
                let sql = "SELECT \(table.columns.map(\.name).joined(separator: ", ")) FROM \(table.name) ORDER BY \(table.orderBy)"
                dump.rows[table.name] = try query(PostgresQuery(unsafeSQL: sql)).map { row in
                    let cells = row.makeRandomAccess()
                    return try table.columns.indices.map { i -> LibraryDump.Value in
                        let cell = cells[i]
                        switch table.columns[i].kind {
                        case .integer: return try cell.decode(Int64?.self).map { .integer($0) } ?? .null
                        case .boolean: return try cell.decode(Bool?.self).map { .integer($0 ? 1 : 0) } ?? .null
                        case .real: return try cell.decode(Double?.self).map { .real($0) } ?? .null
                        case .text: return try cell.decode(String?.self).map { .text($0) } ?? .null
                        case .date: return try cell.decode(Date?.self).map { .date($0) } ?? .null
                        }
                    }
                }
            }
            for row in try query("SELECT workId, jpeg FROM cropImage ORDER BY workId") {
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
                    for (i, value) in row.enumerated() {
                        switch value {
                        case .null: binds.appendNull()
                        case let .integer(n): if table.columns[i].kind == .boolean { try binds.append(n != 0) } else { try binds.append(n) }
                        case let .real(d): try binds.append(d)
                        case let .text(t): try binds.append(t)
                        case let .date(d): try binds.append(d)
                        }
                    }
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
