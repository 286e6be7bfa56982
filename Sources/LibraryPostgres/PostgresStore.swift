import BookModel
import Foundation
import LibraryCore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import PostgresNIO

/// The library on a PostgreSQL server, for a team: several scan workers and reviewers at once.
///
/// One connection per store, used by one transaction at a time (a lock), driven synchronously through
/// postgres-nio's `EventLoopFuture` API so callers keep the same throwing, non-async interface as the SQLite
/// store. Every write is one transaction; a failure rolls it back, so a photo is filed whole or not at all.
///
/// Crops are stored in the database (`cropImage.jpeg`, bytea), not on a path: workers and reviewers on other
/// machines see them without a shared file system, and a crop commits or rolls back with its photo. Reading
/// one writes it to a local cache directory, because review screens show files.
public final class PostgresLibraryStore: LibraryStoring, LibraryEngine, @unchecked Sendable {
    // @unchecked Sendable: `connection` and `commitSent` are only used, and replaced, while `lock` is held.
    private var connection: PostgresConnection
    /// Set while a transaction's COMMIT is on its way to the server: a connection lost then leaves nobody knowing
    /// whether the server applied it.
    private var commitSent = false
    private let configuration: PostgresConnection.Configuration
    /// The longest one statement may wait for the server before the connection is closed under it: a server
    /// that stops answering becomes an error, never a hang. Long by default because a statement may queue
    /// behind another worker's row lock; `?statement_timeout=5` in the URL shortens it.
    public static let defaultStatementTimeout: TimeInterval = 120
    public let statementTimeout: TimeInterval
    /// How long one statement waits for another session's lock before the server refuses it
    /// (`LibraryError.busy`): shorter than `statementTimeout`, so a long wait behind another worker ends as a
    /// refusal on a live connection, not as a connection closed under it. `?lock_timeout=` in the URL sets it.
    public let lockTimeout: TimeInterval

    /// Thrown when the server does not answer a statement within `statementTimeout`; counts as a lost connection.
    struct NoAnswer: Error, CustomStringConvertible {
        var seconds: TimeInterval
        var description: String { "the server did not answer within \(seconds.formatted()) s" }
    }

    /// Filled on an event loop thread before the semaphore is signalled, read only after the wait.
    private final class ResultBox<T>: @unchecked Sendable { var result: Result<T, any Error>? }

    /// Waits for `future` at most `statementTimeout`; past that the connection is closed under it, so a server
    /// that stops answering (or a connection dropped in a way the client never notices) is an error, never a hang.
    private func bounded<T>(_ future: EventLoopFuture<T>) throws -> T {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        future.whenComplete { result in box.result = result; done.signal() }
        if done.wait(timeout: .now() + statementTimeout) == .timedOut {
            let _: EventLoopFuture<Void> = connection.close()
            throw NoAnswer(seconds: statementTimeout)
        }
        return try box.result!.get()
    }
    let lock = NIOLock()
    private let logger = Logger(label: "shelfscan.library.postgres")
    public let path: String? = nil
    public let cropsDirectory: URL
    public let locationDescription: String
    /// This process as a reviewer in claims: `user@host:pid`.
    public var holder: String { processReviewer }

    /// Connects, waits at most `connectTimeout`, and migrates.
    /// - Parameters:
    ///   - url: `postgres://user@host:port/database` (or `?host=/socket/dir`; `?statement_timeout=SECONDS` bounds
    ///     each wait on the server, default 120; `?lock_timeout=SECONDS` each wait for another session's lock,
    ///     default three quarters of the statement timeout). A password in the URL is refused:
    ///     it would show in `ps` and shell history. Pass it as `password` (from `PGPASSWORD` or the config file).
    /// - Throws: `LibraryError.cannotOpen` with one line naming the server and the cause.
    public init(url: String, password: String?, connectTimeout: TimeInterval = 10) throws {
        let location = try PostgresLocation(url)
        locationDescription = location.description
        statementTimeout = location.statementTimeout ?? Self.defaultStatementTimeout
        lockTimeout = min(location.lockTimeout ?? statementTimeout * 0.75, statementTimeout)
        var config: PostgresConnection.Configuration
        if let socket = location.socketDirectory {
            config = .init(unixSocketPath: "\(socket)/.s.PGSQL.\(location.port)", username: location.user,
                           password: password, database: location.database)
        } else {
            config = .init(host: location.host, port: location.port, username: location.user, password: password,
                           database: location.database, tls: .disable)
        }
        config.options.connectTimeout = .milliseconds(Int64(connectTimeout * 1000))
        configuration = config
        do {
            connection = try Self.connect(config, lockTimeout: lockTimeout, logger: logger)
        } catch {
            throw LibraryError.cannotOpen(path: location.description, reason: Self.reason(error))
        }
        cropsDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("shelfscan-crops-\(location.host)-\(location.port)-\(location.database)")
        try? FileManager.default.createDirectory(at: cropsDirectory, withIntermediateDirectories: true)
        do { try migrate() } catch { _ = try? bounded(connection.close()); throw error }
    }

    // Waited for (postgres-nio requires a connection closed before it is freed), but bounded: never a hang.
    deinit { _ = try? bounded(connection.close()) }

    private static func connect(_ config: PostgresConnection.Configuration, lockTimeout: TimeInterval, logger: Logger) throws -> PostgresConnection {
        let connection = try PostgresConnection.connect(on: PostgresConnection.defaultEventLoopGroup.next(), configuration: config,
                                                        id: 1, logger: logger).wait()
        do {
            _ = try connection.query(PostgresQuery(unsafeSQL: "SET lock_timeout = \(max(1, Int(lockTimeout * 1000)))"), logger: logger).wait()
        } catch {
            _ = try? connection.close().wait()
            throw error
        }
        return connection
    }

    private func reconnect() throws {
        connection = try Self.connect(configuration, lockTimeout: lockTimeout, logger: logger)
    }

    /// The connection is gone (server restarted, connection killed, network dropped), as opposed to a statement
    /// the server refused.
    static func isConnectionLost(_ error: any Error) -> Bool {
        if error is NoAnswer { return true }
        guard let e = error as? PSQLError else { return false }
        switch e.code {
        case .connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection: return true
        case .server:
            // 57P01 admin shutdown, 57P02 crash shutdown, 57P03 cannot connect now, 08xxx connection exceptions.
            let state = e.serverInfo?[.sqlState] ?? ""
            return state.hasPrefix("57P") || state.hasPrefix("08")
        default: return false
        }
    }

    /// Runs `attempt` under the lock; if the connection was lost, reconnects once and runs it again (a bounded
    /// retry: a server restart costs one reconnect, a server that stays down is one clear error). A transaction
    /// cut off before its COMMIT was sent was rolled back by the server, so running it again never half-applies
    /// it; one cut off after is run again only when `replay` says that is safe, so it is never applied twice.
    private func withConnection<T>(replay: WriteReplay = .safe, _ attempt: () throws -> T) throws -> T {
        try lock.withLock {
            commitSent = false
            // postgres-nio drops a statement written to a closed connection without ever answering it, so a
            // connection known closed (by the server, or by a lost COMMIT below) is replaced before it is used.
            if connection.isClosed {
                do { try reconnect() } catch { throw LibraryError.connectionLost(location: locationDescription, mayHaveBeenApplied: false) }
            }
            do {
                return try attempt()
            } catch where Self.isConnectionLost(error) {
                let uncertain = commitSent
                _ = try? bounded(connection.close())
                let lost = LibraryError.connectionLost(location: locationDescription, mayHaveBeenApplied: uncertain)
                // The closed connection stays; the next call replaces it.
                if uncertain && replay == .never { throw lost }
                do { try reconnect() } catch { throw lost }
                commitSent = false
                do { return try attempt() } catch {
                    // A COMMIT the server refused was not applied; one whose connection went may have been.
                    throw wrap(error, mayHaveBeenApplied: uncertain || (commitSent && Self.isConnectionLost(error)))
                }
            } catch {
                throw wrap(error)
            }
        }
    }

    /// Creates an empty database beside the one `serverURL` names (for tests, benchmarks and `migrate` targets)
    /// and returns its URL. `name` must be a plain lower-case identifier.
    public static func createDatabase(named name: String, besides serverURL: String, password: String?) throws -> String {
        precondition(name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" }, "plain identifier")
        let store = try PostgresLibraryStore(url: serverURL, password: password)
        try store.lock.withLock {
            do { try store.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)")) } catch { throw store.wrap(error) }
        }
        var c = URLComponents(string: serverURL)!
        c.path = "/\(name)"
        return c.string!
    }

    // MARK: Queries

    /// One line a person can act on, from whatever postgres-nio threw. Never includes the password.
    static func reason(_ error: any Error) -> String {
        if let e = error as? PSQLError {
            if let message = e.serverInfo?[.message] { return message }
            switch e.code {
            case .connectionError, .serverClosedConnection, .uncleanShutdown:
                return "the server closed the connection or is not running (\(e.underlying.map { "\($0)" } ?? "no answer"))"
            default: return "\(e.code)"
            }
        }
        return "\(error)"
    }

    /// postgres-nio's error, named for what the caller can do about it (see `LibraryError`), by the server's
    /// SQLSTATE. `mayHaveBeenApplied`: a change's COMMIT was sent on a connection lost before its answer came.
    func wrap(_ error: any Error, mayHaveBeenApplied: Bool = false) -> any Error {
        if error is LibraryError { return error }
        let location = locationDescription
        if Self.isConnectionLost(error) || mayHaveBeenApplied {
            return LibraryError.connectionLost(location: location, mayHaveBeenApplied: mayHaveBeenApplied)
        }
        let reason = Self.reason(error)
        let state = (error as? PSQLError)?.serverInfo?[.sqlState] ?? ""
        switch state {
        // serialization failure, deadlock, lock_timeout, statement_timeout
        case "40001", "40P01", "55P03", "57014": return LibraryError.busy(location: location, reason: reason)
        // integrity constraint violations: not null, foreign key, unique, check, exclusion
        case _ where state.hasPrefix("23"): return LibraryError.constraint(location: location, reason: reason)
        // authentication, no such database
        case _ where state.hasPrefix("28") || state == "3D000": return LibraryError.cannotOpen(path: location, reason: reason)
        default: return LibraryError.databaseFailed(location: location, reason: reason)
        }
    }

    /// Runs one statement and collects its rows.
    @discardableResult
    func query(_ q: PostgresQuery) throws -> [PostgresRow] {
        var rows: [PostgresRow] = []
        for row in try bounded(connection.query(q, logger: logger)) { rows.append(row) }
        return rows
    }

    func scalar<T: PostgresDecodable>(_ q: PostgresQuery, as: T.Type = T.self) throws -> T? {
        try query(q).first.map { try $0.decode(T.self) }
    }

    /// One transaction: everything `body` does commits together, or nothing does.
    /// - Parameter replay: whether it may be sent again after a connection lost with its COMMIT on the way.
    @discardableResult
    func transaction<T>(replay: WriteReplay = .never, _ body: () throws -> T) throws -> T {
        try withConnection(replay: replay) {
            try query("BEGIN")
            do {
                let result = try body()
                commitSent = true
                try query("COMMIT")
                return result
            } catch {
                if !Self.isConnectionLost(error) { _ = try? query("ROLLBACK") }
                throw error
            }
        }
    }

    /// A transaction applied at most once, even when the connection is lost after its COMMIT was sent: the
    /// decisions, undo, split and join, filing and edits, where a second run would apply them again (an undo
    /// would undo the next decision too). Its result is stored under a key of its own in the same transaction;
    /// run again after such a loss, it first looks for that key and returns what the first run committed.
    @discardableResult
    func transactionOnce<T: Codable>(_ body: () throws -> T) throws -> T {
        let key = UUID().uuidString
        var again = false
        return try transaction(replay: .safe) {
            defer { again = true }
            if again {
                // If the first run's transaction is still being committed, this insert waits for it (its row holds
                // the key), so what follows sees it committed or rolled back, never in between.
                let free = try query("""
                    INSERT INTO appliedRequest (requestId, result, appliedAt) VALUES (\(key), '', now())
                    ON CONFLICT (requestId) DO NOTHING RETURNING requestId
                    """)
                if free.isEmpty, let stored = try scalar("SELECT result FROM appliedRequest WHERE requestId = \(key)", as: String.self) {
                    return try JSONDecoder().decode(T.self, from: Data(stored.utf8))
                }
            }
            let result = try body()
            // A key is only looked for within one reconnect, so a day's worth is plenty to keep.
            try query("""
                WITH old AS (DELETE FROM appliedRequest WHERE appliedAt < now() - interval '1 day')
                INSERT INTO appliedRequest (requestId, result, appliedAt) VALUES (\(key), \(try encodeJSON(result)), now())
                ON CONFLICT (requestId) DO UPDATE SET result = excluded.result
                """)
            return result
        }
    }

    func read<T>(_ body: () throws -> T) throws -> T {
        try withConnection(body)
    }

    private func migrate() throws {
        try transaction(replay: .safe) {
            // One migrator at a time, even with several workers starting together.
            try query("SELECT pg_advisory_xact_lock(7142014)")
            try query("CREATE TABLE IF NOT EXISTS shelfscanMigration (name text PRIMARY KEY, appliedAt timestamptz NOT NULL)")
            let done = Set(try query("SELECT name FROM shelfscanMigration").map { try $0.decode(String.self) })
            for migration in PostgresSchema.migrations where !done.contains(migration.name) {
                for statement in migration.statements { try query(PostgresQuery(unsafeSQL: statement)) }
                try query("INSERT INTO shelfscanMigration (name, appliedAt) VALUES (\(migration.name), now())")
            }
        }
    }

    public func appliedMigrations() throws -> [String] {
        try read { try query("SELECT name FROM shelfscanMigration ORDER BY appliedAt, name").map { try $0.decode(String.self) } }
            .sorted { a, b in
                let order = PostgresSchema.migrations.map(\.name)
                return (order.firstIndex(of: a) ?? .max) < (order.firstIndex(of: b) ?? .max)
            }
    }

    // MARK: Filing

    public func photoStatus(contentHash: String) throws -> FiledPhotoStatus? {
        try read { try photoStatusLocked(contentHash) }
    }

    private func photoStatusLocked(_ contentHash: String) throws -> FiledPhotoStatus? {
        guard let row = try query("""
            SELECT p.id, p.contentHash, p.originalImagePath, p.filedAt, COUNT(w.id),
                   COUNT(w.id) FILTER (WHERE w.reviewStatus = 'needsReview')
            FROM photo p LEFT JOIN work w ON w.photoId = p.id WHERE p.contentHash = \(contentHash) GROUP BY p.id
            """).first else { return nil }
        let (id, hash, path, filed, total, pending) = try row.decode((Int64, String, String, Date, Int64, Int64).self)
        return FiledPhotoStatus(photoID: id, contentHash: hash, originalImagePath: path, filedAt: filed,
                                workCount: Int(total), pendingCount: Int(pending))
    }

    public func claimPhoto(contentHash: String, worker: String, lease: TimeInterval) throws -> Bool {
        // Safe to replay: a claim of ours is renewed, and a photo filed meanwhile is not claimed.
        try transaction(replay: .safe) {
            if try photoStatusLocked(contentHash) != nil { return false }
            // Taken over only when the holder's lease ran out (a dead worker), or it is ours already.
            let got = try query("""
                INSERT INTO photoClaim (contentHash, worker, expiresAt)
                VALUES (\(contentHash), \(worker), now() + make_interval(secs => \(lease)))
                ON CONFLICT (contentHash) DO UPDATE SET worker = excluded.worker, expiresAt = excluded.expiresAt
                WHERE photoClaim.expiresAt < now() OR photoClaim.worker = excluded.worker
                RETURNING worker
                """)
            return !got.isEmpty
        }
    }

    public func releasePhoto(contentHash: String, worker: String) throws {
        try transaction(replay: .safe) { try query("DELETE FROM photoClaim WHERE contentHash = \(contentHash) AND worker = \(worker)") }
    }

    // MARK: Reading Works

    private static let summaryColumns = """
        w.id, w.title, w.reviewStatus, w.readingConfidence, w.detectionConfidence, w.photoContentHash,
        w.spineRow, w.spinePosition, w.revision
        """

    private func summaries(where clause: String, order: String, limit: Int?, offset: Int) throws -> [WorkSummary] {
        let rows = try query(PostgresQuery(unsafeSQL: """
            SELECT \(Self.summaryColumns),
                   (SELECT string_agg(a.name, E'\\x1f' ORDER BY c.position) FROM credit c JOIN author a ON a.id = c.authorId
                    WHERE c.workId = w.id AND c.role = 'author')
            FROM work w WHERE \(clause) ORDER BY \(order) \(limit.map { "LIMIT \($0)" } ?? "") OFFSET \(offset)
            """))
        return try rows.map { row in
            let (id, title, status, reading, detection, hash, spineRow, position, revision, authors) = try row.decode(
                (Int64, String, String, Double?, Double?, String?, Int?, Int?, Int, String?).self)
            return WorkSummary(id: id, title: title, authors: authors.map { $0.split(separator: "\u{1f}").map(String.init) } ?? [],
                               reviewStatus: ReviewStatus(rawValue: status) ?? .needsReview, readingConfidence: reading,
                               detectionConfidence: detection, photoContentHash: hash, row: spineRow, position: position,
                               revision: revision)
        }
    }

    public func pendingCount() throws -> Int {
        try read { Int(try scalar("SELECT COUNT(*) FROM work WHERE reviewStatus = 'needsReview'", as: Int64.self) ?? 0) }
    }

    public func pendingSummaries(limit: Int?, offset: Int) throws -> [WorkSummary] {
        try read { try summaries(where: "w.reviewStatus = 'needsReview'", order: "w.id", limit: limit, offset: offset) }
    }

    public func librarySummaries(limit: Int?, offset: Int) throws -> [WorkSummary] {
        try read { try summaries(where: "w.reviewStatus != 'needsReview'", order: "w.normalizedTitle, w.id", limit: limit, offset: offset) }
    }

    public func work(id: Work.ID) throws -> Work? {
        try read { try loadWork(id) }
    }

    public func works(includePending: Bool) throws -> [Work] {
        try read {
            try loadWorks(where: includePending ? "" : "reviewStatus != 'needsReview'")
        }
    }

    package func claimPending(reviewer: String, lease: TimeInterval, after: Work.ID?) throws -> Work.ID? {
        if let id = try claim(reviewer: reviewer, lease: lease, after: after ?? 0) { return id }
        return (after ?? 0) > 0 ? try claim(reviewer: reviewer, lease: lease, after: 0) : nil
    }

    /// Claims the first pending Work after `after` that is free (or already `reviewer`'s), and gives back any
    /// other claim `reviewer` held: one Work in front of each reviewer at a time.
    private func claim(reviewer: String, lease: TimeInterval, after: Int64) throws -> Int64? {
        // Safe to replay: a Work the reviewer holds counts as free to them, so a second run claims the same Work
        // again (or one freed meanwhile), and the reviewer still holds exactly one.
        try transaction(replay: .safe) {
            // Each try is a new statement, so a new snapshot: a claim another reviewer committed since the last
            // try is seen. The upsert only takes over an expired claim (or our own), never a live one.
            for _ in 0..<20 {
                // SKIP LOCKED: a Work another reviewer is claiming this instant is passed over, not waited for.
                guard let candidate = try scalar("""
                    SELECT w.id FROM work w LEFT JOIN reviewClaim c ON c.workId = w.id
                    WHERE w.reviewStatus = 'needsReview' AND w.id > \(after)
                      AND (c.workId IS NULL OR c.expiresAt < now() OR c.reviewer = \(reviewer))
                    ORDER BY (c.reviewer IS NOT DISTINCT FROM \(reviewer) AND \(after) = 0) DESC, w.id
                    LIMIT 1 FOR UPDATE OF w SKIP LOCKED
                    """, as: Int64.self) else { break }
                let won = try query("""
                    INSERT INTO reviewClaim (workId, reviewer, expiresAt)
                    VALUES (\(candidate), \(reviewer), now() + make_interval(secs => \(lease)))
                    ON CONFLICT (workId) DO UPDATE SET reviewer = excluded.reviewer, expiresAt = excluded.expiresAt
                    WHERE reviewClaim.expiresAt < now() OR reviewClaim.reviewer = excluded.reviewer
                    RETURNING workId
                    """)
                if !won.isEmpty {
                    try query("DELETE FROM reviewClaim WHERE reviewer = \(reviewer) AND workId != \(candidate)")
                    return candidate
                }
            }
            try query("DELETE FROM reviewClaim WHERE reviewer = \(reviewer)")
            return nil
        }
    }

    public func saveCursor(_ workID: Work.ID?, session: String, date: Date) throws {
        try transaction(replay: .safe) {
            try query("""
                INSERT INTO reviewCursor (session, workId, updatedAt) VALUES (\(session), \(workID), \(date))
                ON CONFLICT (session) DO UPDATE SET workId = excluded.workId, updatedAt = excluded.updatedAt
                """)
        }
    }

    public func cursor(session: String) throws -> Work.ID? {
        try read { try query("SELECT workId FROM reviewCursor WHERE session = \(session)").first?.decode(Int64?.self) }
    }

    public func pendingNeighbour(of id: Work.ID, toTheRight: Bool) throws -> Work? {
        try read {
            // As on SQLite: a piece of a split shares its neighbour's position, so equal positions count, by ID.
            let neighbour = try rows("""
                SELECT n.id FROM work w JOIN work n ON n.photoId = w.photoId AND n.spineRow = w.spineRow
                WHERE w.id = $1 AND n.id != w.id AND n.reviewStatus = 'needsReview'
                  AND n.spinePosition \(toTheRight ? ">=" : "<=") w.spinePosition
                ORDER BY n.spinePosition \(toTheRight ? "ASC" : "DESC"), n.id \(toTheRight ? "ASC" : "DESC") LIMIT 1
                """, id).first.map { try $0.decode(Int64.self) }
            return try neighbour.flatMap { try loadWork($0) }
        }
    }

    public func pendingWorks(photoContentHash: String, row: Int?) throws -> [Work] {
        try read {
            try loadWorks(where: "photoContentHash = $1 AND reviewStatus = 'needsReview'" + (row == nil ? "" : " AND spineRow = $2"),
                          binding: [photoContentHash] + (row.map { [$0] } ?? []), orderBy: "spineRow, spinePosition, id")
        }
    }

    public func works(photoContentHash: String) throws -> [Work] {
        try read {
            try loadWorks(where: "photoContentHash = $1", binding: [photoContentHash], orderBy: "spineRow, spinePosition, id")
        }
    }

    public func reviewStatuses(ids: [Work.ID]) throws -> [Work.ID: ReviewStatus] {
        guard !ids.isEmpty else { return [:] }
        return try read {
            var statuses: [Work.ID: ReviewStatus] = [:]
            for row in try query("SELECT id, reviewStatus FROM work WHERE id = ANY(\(ids))") {
                let (id, status) = try row.decode((Int64, String).self)
                statuses[id] = ReviewStatus(rawValue: status) ?? .needsReview
            }
            return statuses
        }
    }

    public func journal(limit: Int) throws -> [JournalEntry] {
        try read {
            try query("SELECT id, session, kind, workId, summary, decidedAt, undoneAt IS NOT NULL FROM journal ORDER BY id DESC LIMIT \(limit)")
                .map {
                    let (id, session, kind, work, summary, decided, undone) = try $0.decode((Int64, String, String, Int64, String, Date, Bool).self)
                    return JournalEntry(id: id, session: session, kind: kind, workID: work, summary: summary, decidedAt: decided, undone: undone)
                }
        }
    }

    public func liveJournal(kinds: [String]) throws -> [LiveJournalRow] {
        try read {
            try query("SELECT id, kind, workId, decidedAt, before FROM journal WHERE undoneAt IS NULL AND kind = ANY(\(kinds)) ORDER BY id")
                .map {
                    let (id, kind, work, decided, before) = try $0.decode((Int64, String, Int64, Date, String).self)
                    return LiveJournalRow(id: id, kind: kind, workID: work, decidedAt: decided, before: before)
                }
        }
    }

    public func duplicateIndex() throws -> DuplicateIndex { DuplicateIndex(works: try works(includePending: false)) }

    // MARK: Crops

    public func cropURL(for work: Work) -> URL? {
        lock.withLock { cropURLLocked(work) }
    }

    func cropURLLocked(_ work: Work) -> URL? {
        guard let id = work.id, let name = work.spine?.cropFile else { return nil }
        let url = cropsDirectory.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: url.path) { return url }
        guard let bytes = try? scalar("SELECT jpeg FROM cropImage WHERE workId = \(id)", as: ByteBuffer.self) else { return nil }
        let tmp = cropsDirectory.appendingPathComponent(".\(name).\(UUID().uuidString).tmp")
        do {
            try Data(bytes.readableBytesView).write(to: tmp)
            try? FileManager.default.removeItem(at: url)
            try FileManager.default.moveItem(at: tmp, to: url)
            return url
        } catch {
            try? FileManager.default.removeItem(at: tmp)
            return nil
        }
    }

    /// The stored crop's bytes (for copying a library between engines).
    public func cropJPEG(workID: Work.ID) throws -> [UInt8]? {
        try read { try scalar("SELECT jpeg FROM cropImage WHERE workId = \(workID)", as: ByteBuffer.self).map { Array($0.readableBytesView) } }
    }

    // MARK: Library

    public func stats() throws -> LibraryStats {
        try read {
            func count(_ sql: String) throws -> Int { Int(try scalar(PostgresQuery(unsafeSQL: sql), as: Int64.self) ?? 0) }
            var byStatus: [String: Int] = [:]
            for row in try query(PostgresQuery(unsafeSQL: LibraryStats.byReadingStatusSQL)) {
                let (s, n) = try row.decode((String, Int64).self)
                byStatus[s] = Int(n)
            }
            return try LibraryStats(counting: count, byReadingStatus: byStatus)
        }
    }

}

/// `postgres://user@host:port/database`, parsed; the password never comes from here.
struct PostgresLocation: CustomStringConvertible {
    var user: String
    var host: String
    var port: Int
    var database: String
    /// `?host=/var/run/postgresql`: a unix-socket directory instead of TCP.
    var socketDirectory: String?
    /// `?statement_timeout=5` (seconds; `5s` and `500ms` also read): how long one statement may wait for the server.
    var statementTimeout: TimeInterval?
    /// `?lock_timeout=` (read as `statement_timeout` is): how long one statement may wait for another session's lock.
    var lockTimeout: TimeInterval?

    init(_ url: String) throws {
        guard let c = URLComponents(string: url), c.scheme == "postgres" || c.scheme == "postgresql" else {
            throw LibraryError.cannotOpen(path: url, reason: "not a postgres:// URL (postgres://user@host:5432/database)")
        }
        let shown = "postgres://\(c.user ?? "")@\(c.host ?? "")\(c.port.map { ":\($0)" } ?? "")\(c.path)"
        guard c.password == nil else {
            throw LibraryError.cannotOpen(path: shown, reason: "a password in the URL would show in process lists and logs; set PGPASSWORD or the config file instead")
        }
        guard let user = c.user, !user.isEmpty else {
            throw LibraryError.cannotOpen(path: shown, reason: "the URL names no user (postgres://user@host:5432/database)")
        }
        let database = String(c.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty else {
            throw LibraryError.cannotOpen(path: shown, reason: "the URL names no database (postgres://user@host:5432/database)")
        }
        self.user = user
        host = c.host.flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1"
        port = c.port ?? 5432
        self.database = database
        socketDirectory = c.queryItems?.first(where: { $0.name == "host" })?.value
        func duration(_ name: String) throws -> TimeInterval? {
            guard let text = c.queryItems?.first(where: { $0.name == name })?.value else { return nil }
            guard let seconds = Self.seconds(text), seconds > 0 else {
                throw LibraryError.cannotOpen(path: shown, reason: "\(name)=\(text) is not a duration (seconds, e.g. \(name)=5 or 500ms)")
            }
            return seconds
        }
        statementTimeout = try duration("statement_timeout")
        lockTimeout = try duration("lock_timeout")
    }

    static func seconds(_ text: String) -> TimeInterval? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        if t.hasSuffix("ms") { return Double(t.dropLast(2)).map { $0 / 1000 } }
        if t.hasSuffix("s") { return Double(t.dropLast()) }
        return Double(t)
    }

    var description: String {
        "postgres://\(user)@\(socketDirectory.map { "[\($0)]" } ?? host):\(port)/\(database)"
    }
}
