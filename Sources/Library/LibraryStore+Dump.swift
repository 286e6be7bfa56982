import BookModel
import Foundation
import GRDB
import LibraryCore

extension LibraryStore {
    public func dump() async throws -> LibraryDump {
        var (dump, cropFiles) = try await read { db in
            var dump = LibraryDump()
            for table in LibraryDump.tables {
                let sql = "SELECT \(table.columns.map(\.name).joined(separator: ", ")) FROM \(table.name) ORDER BY \(table.orderBy)"
                var list: [[LibraryDump.Value]] = []
                let cursor = try Row.fetchCursor(db, sql: sql)
                while let row = try cursor.next() {
                    list.append(table.columns.indices.map { i in Self.dumpValue(row, i, table.columns[i].kind) })
                }
                dump.rows[table.name] = list
            }
            let cropFiles: [(Int64, String)] = try Row.fetchAll(db, sql: "SELECT id, cropFile FROM work WHERE cropFile IS NOT NULL ORDER BY id")
                .map { ($0[0], $0[1]) }
            return (dump, cropFiles)
        }
        for (id, name) in cropFiles {
            if let data = FileManager.default.contents(atPath: cropsDirectory.appendingPathComponent(name).path) {
                dump.crops[id] = [UInt8](data)
            }
        }
        return dump
    }

    private static func dumpValue(_ row: Row, _ i: Int, _ kind: LibraryDump.Kind) -> LibraryDump.Value {
        let dbValue: DatabaseValue = row[i]
        if dbValue.isNull { return .null }
        switch kind {
        case .integer, .boolean: return .integer(row[i])
        case .real: return .real(row[i])
        case .text: return .text(row[i])
        case .date: return (row[i] as Date?).map { .date($0) } ?? .text(row[i])
        }
    }

    public func restore(_ dump: LibraryDump) async throws {
        try await requireEmptyForRestore()
        var written: [URL] = []
        var cropNames: [Int64: String] = [:]
        if let work = LibraryDump.tables.first(where: { $0.name == "work" }),
           let id = work.columns.firstIndex(where: { $0.name == "id" }), let crop = work.columns.firstIndex(where: { $0.name == "cropFile" }) {
            for row in dump.rows["work"] ?? [] {
                if case let .integer(w) = row[id], case let .text(name) = row[crop] { cropNames[w] = name }
            }
        }
        do {
            for (id, bytes) in dump.crops {
                guard let name = cropNames[id] else { continue }
                let url = cropsDirectory.appendingPathComponent(name)
                try Data(bytes).write(to: url)
                written.append(url)
            }
            try await run { db in
                for table in LibraryDump.tables {
                    let columns = table.columns.map(\.name)
                    let statement = try db.makeStatement(sql: """
                        INSERT INTO \(table.name) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))
                        """)
                    for row in dump.rows[table.name] ?? [] {
                        try statement.execute(arguments: StatementArguments(row.map { v -> (any DatabaseValueConvertible)? in
                            switch v {
                            case .null: nil
                            case let .integer(i): i
                            case let .real(d): d
                            case let .text(t): t
                            case let .date(d): d
                            }
                        }))
                    }
                }
            }
        } catch {
            for url in written { try? FileManager.default.removeItem(at: url) }
            throw error
        }
    }
}
