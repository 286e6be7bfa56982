import BookModel
import Foundation
import LibraryCore
import Logging
import NIOCore
import NIOPosix
import PostgresNIO

/// The library on a PostgreSQL server, for a team: several scan workers and reviewers at once.
///
/// A pool of connections (postgres-nio's `PostgresClient`, run by a task the store owns): each call leases one
/// for one transaction, so several reviewers and workers in one process use several connections at once. The
/// library's rules are synchronous (`LibraryEngine`), so a transaction runs on a thread of the store's own pool,
/// one per connection, where each statement waits for the leased connection's answer: no event loop thread and
/// no Swift concurrency thread ever waits for the server. Every write is one transaction; a failure rolls it
/// back, so a photo is filed whole or not at all.
///
/// Crops are stored in the database (`cropImage.jpeg`, bytea), not on a path: workers and reviewers on other
/// machines see them without a shared file system, and a crop commits or rolls back with its photo. Reading
/// one writes it to a local cache directory, because review screens show files.
public final class PostgresLibraryStore: LibraryStoring, LibraryEngine, Sendable {
    private let client: PostgresClient
    /// Runs `client` for as long as the store lives; cancelling it closes the pool's connections.
    private let running: Task<Void, Never>
    /// Where transactions run, one thread per pooled connection: the statements they send wait there.
    private let threads: NIOThreadPool
    /// The most connections (and transactions at once) this store opens.
    public let connections: Int
    /// The longest one statement may wait for the server before the connection is closed under it: a server
    /// that stops answering becomes an error, never a hang. Long by default because a statement may queue
    /// behind another worker's row lock; `?statement_timeout=5` in the URL shortens it.
    public static let defaultStatementTimeout: TimeInterval = 120
    public let statementTimeout: TimeInterval
    /// How long one statement waits for another session's lock before the server refuses it
    /// (`LibraryError.busy`): shorter than `statementTimeout`, so a long wait behind another worker ends as a
    /// refusal on a live connection, not as a connection closed under it. `?lock_timeout=` in the URL sets it;
    /// every pooled connection starts with it (a startup parameter), so none runs without it.
    public let lockTimeout: TimeInterval
    /// How long opening a connection, or waiting for one from the pool, may take.
    let connectTimeout: TimeInterval

    /// Thrown when the server does not answer a statement within `statementTimeout`; counts as a lost connection.
    struct NoAnswer: Error, CustomStringConvertible {
        var seconds: TimeInterval
        var description: String { "the server did not answer within \(seconds.formatted()) s" }
    }

    let logger = Logger(label: "shelfscan.library.postgres")
    public let path: String? = nil
    public let cropsDirectory: URL
    public let locationDescription: String
    /// This process as a reviewer in claims: `user@host:pid`.
    public var holder: String { processReviewer }

    /// Connects, waits at most `connectTimeout`, and migrates.
    /// - Parameters:
    ///   - url: `postgres://user@host:port/database` (or `?host=/socket/dir`; `?statement_timeout=SECONDS` bounds
    ///     each wait on the server, default 120; `?lock_timeout=SECONDS` each wait for another session's lock,
    ///     default three quarters of the statement timeout; `?pool_size=N` the pool's size, over `connections`).
    ///     A password in the URL is refused: it would show in `ps` and shell history. Pass it as `password` (from
    ///     `PGPASSWORD` or the config file).
    ///   - connections: the pool's size when the URL names none: how many transactions of this store run at once.
    /// - Throws: `LibraryError.cannotOpen` with one line naming the server and the cause.
    public init(url: String, password: String?, connectTimeout: TimeInterval = 10, connections: Int = 4) async throws {
        let location = try PostgresLocation(url)
        locationDescription = location.description
        statementTimeout = location.statementTimeout ?? Self.defaultStatementTimeout
        lockTimeout = min(location.lockTimeout ?? statementTimeout * 0.75, statementTimeout)
        self.connections = max(1, location.poolSize ?? connections)
        self.connectTimeout = connectTimeout
        let startup = [("lock_timeout", "\(max(1, Int(lockTimeout * 1000)))")]
        var config: PostgresClient.Configuration
        var direct: PostgresConnection.Configuration
        if let socket = location.socketDirectory {
            let path = "\(socket)/.s.PGSQL.\(location.port)"
            config = .init(unixSocketPath: path, username: location.user, password: password, database: location.database)
            direct = .init(unixSocketPath: path, username: location.user, password: password, database: location.database)
        } else {
            config = .init(host: location.host, port: location.port, username: location.user, password: password,
                           database: location.database, tls: .disable)
            direct = .init(host: location.host, port: location.port, username: location.user, password: password,
                           database: location.database, tls: .disable)
        }
        config.options.connectTimeout = .milliseconds(Int64(connectTimeout * 1000))
        direct.options.connectTimeout = .milliseconds(Int64(connectTimeout * 1000))
        config.options.additionalStartupParameters = startup
        direct.options.additionalStartupParameters = startup
        config.options.maximumConnections = self.connections
        cropsDirectory = Self.cropCache(for: location)
        try? FileManager.default.createDirectory(at: cropsDirectory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o700])
        // One connection made first on its own: a wrong password or no server is one clear error now, where a
        // pooled lease would wait through the pool's retries.
        do {
            let first = try await PostgresConnection.connect(configuration: direct, id: 0, logger: logger)
            try? await first.close()
        } catch {
            throw LibraryError.cannotOpen(path: location.description, reason: Self.reason(error))
        }
        // The pool's own log only for errors: its first lease may come before `run()` has begun, which it warns
        // about although the lease just waits for it.
        var background = logger
        background.logLevel = .error
        let client = PostgresClient(configuration: config, backgroundLogger: background)
        self.client = client
        running = Task { await client.run() }
        threads = NIOThreadPool(numberOfThreads: self.connections)
        threads.start()
        try await migrate()
    }

    deinit {
        running.cancel()
        threads.shutdownGracefully { _ in }
    }

    /// The connection is gone (server restarted, connection killed, network dropped), as opposed to a statement
    /// the server refused.
    static func isConnectionLost(_ error: any Error) -> Bool {
        if error is NoAnswer || error is NoConnection { return true }
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

    /// One run of `attempt` on a leased connection, on the store's threads. A connection the pool hands out
    /// already closed (the server ended it while it sat idle) is never used: postgres-nio drops a statement
    /// written to a closed connection without ever answering it. One lost during the run is closed before it
    /// goes back, so the pool replaces it.
    private func run<T: Sendable>(_ state: PostgresTransaction.Attempt, _ attempt: @escaping @Sendable (PostgresTransaction) throws -> T) async throws -> T {
        for _ in 0...connections {
            let outcome: Result<T, any Error>? = try await leased { connection in
                if connection.isClosed {
                    try? await connection.closeFuture.get()   // the pool has seen it close once this returns
                    return nil
                }
                let tx = PostgresTransaction(store: self, connection: connection, attempt: state)
                do {
                    return .success(try await self.threads.runIfActive { try attempt(tx) })
                } catch {
                    if Self.isConnectionLost(error) {
                        try? await connection.close()
                        try? await connection.closeFuture.get()
                    }
                    return .failure(error)
                }
            }
            if let outcome { return try outcome.get() }
        }
        throw LibraryError.connectionLost(location: locationDescription, mayHaveBeenApplied: false)
    }

    /// Thrown when no pooled connection came within `connectTimeout`; counts as a lost connection.
    struct NoConnection: Error, CustomStringConvertible {
        var seconds: TimeInterval
        var description: String { "no connection to the server within \(seconds.formatted()) s" }
    }

    /// `body` on a leased connection, waiting at most `connectTimeout` for the lease: with the server gone the
    /// pool would go on trying to connect for a minute, where one clear error, soon, is what a caller can use.
    private func leased<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection) async -> T) async throws -> T {
        let lease = LeaseRace()
        return try await withThrowingTaskGroup(of: LeaseLeg<T>.self) { group in
            group.addTask {
                try await self.client.withConnection { connection in
                    guard lease.take() else { throw CancellationError() }
                    return .done(await body(connection))
                }
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(self.connectTimeout))
                if lease.giveUp() { throw NoConnection(seconds: self.connectTimeout) }
                return .timer
            }
            while let leg = try await group.next() {
                if case let .done(value) = leg {
                    group.cancelAll()
                    return value
                }
            }
            throw NoConnection(seconds: connectTimeout)
        }
    }

    /// Decides, once, whether a lease came in time or the wait was given up.
    private final class LeaseRace: @unchecked Sendable {
        // @unchecked Sendable: `state` is only touched while `lock` is held.
        private let lock = NSLock()
        private var state: Bool?
        /// True when the lease came first: the caller uses the connection.
        func take() -> Bool { lock.withLock { if state == nil { state = true }; return state == true } }
        /// True when the wait ran out first: the lease, if it still comes, is handed straight back.
        func giveUp() -> Bool { lock.withLock { if state == nil { state = false }; return state == false } }
    }

    /// Runs `attempt` on a pooled connection; if the connection was lost, runs it once more on another (a
    /// bounded retry: a server restart costs one reconnect, a server that stays down is one clear error). A
    /// transaction cut off before its COMMIT was sent was rolled back by the server, so running it again never
    /// half-applies it; one cut off after is run again only when `replay` says that is safe, so it is never
    /// applied twice.
    func withConnection<T: Sendable>(replay: WriteReplay = .safe, _ attempt: @escaping @Sendable (PostgresTransaction) throws -> T) async throws -> T {
        let first = PostgresTransaction.Attempt(again: false)
        do {
            return try await run(first, attempt)
        } catch where Self.isConnectionLost(error) {
            let uncertain = first.commitSent
            if uncertain && replay == .never {
                throw LibraryError.connectionLost(location: locationDescription, mayHaveBeenApplied: true)
            }
            let second = PostgresTransaction.Attempt(again: true)
            do { return try await run(second, attempt) } catch {
                // A COMMIT the server refused was not applied; one whose connection went may have been.
                throw wrap(error, mayHaveBeenApplied: uncertain || (second.commitSent && Self.isConnectionLost(error)))
            }
        } catch {
            throw wrap(error)
        }
    }

    /// A pooled connection for `body` alone, outside the store's transactions: tests that hold a row lock while
    /// another store waits for it.
    func withLeasedConnection<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await client.withConnection(body)
    }

    /// Creates an empty database beside the one `serverURL` names (for tests, benchmarks and `migrate` targets)
    /// and returns its URL. `name` must be a plain lower-case identifier.
    public static func createDatabase(named name: String, besides serverURL: String, password: String?) async throws -> String {
        precondition(name.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" }, "plain identifier")
        let store = try await PostgresLibraryStore(url: serverURL, password: password, connections: 1)
        // Outside a transaction (CREATE DATABASE cannot run inside one), and never sent twice.
        _ = try await store.withConnection(replay: .never) { tx in try tx.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)")) }
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

    /// One transaction: everything `body` does commits together, or nothing does.
    /// - Parameter replay: whether it may be sent again after a connection lost with its COMMIT on the way.
    @discardableResult
    func transaction<T: Sendable>(replay: WriteReplay = .never, _ body: @escaping @Sendable (PostgresTransaction) throws -> T) async throws -> T {
        try await withConnection(replay: replay) { tx in
            try tx.query("BEGIN")
            do {
                let result = try body(tx)
                tx.attempt.commitSent = true
                try tx.query("COMMIT")
                return result
            } catch {
                if !Self.isConnectionLost(error) { _ = try? tx.query("ROLLBACK") }
                throw error
            }
        }
    }

    /// A transaction applied at most once, even when the connection is lost after its COMMIT was sent: the
    /// decisions, undo, split and join, filing and edits, where a second run would apply them again (an undo
    /// would undo the next decision too). Its result is stored under a key of its own in the same transaction;
    /// run again after such a loss, it first looks for that key and returns what the first run committed.
    @discardableResult
    func transactionOnce<T: Codable & Sendable>(_ body: @escaping @Sendable (PostgresTransaction) throws -> T) async throws -> T {
        let key = UUID().uuidString
        return try await transaction(replay: .safe) { tx in
            if tx.attempt.again {
                // If the first run's transaction is still being committed, this insert waits for it (its row holds
                // the key), so what follows sees it committed or rolled back, never in between.
                let free = try tx.query("""
                    INSERT INTO appliedRequest (requestId, result, appliedAt) VALUES (\(key), '', now())
                    ON CONFLICT (requestId) DO NOTHING RETURNING requestId
                    """)
                if free.isEmpty, let stored = try tx.scalar("SELECT result FROM appliedRequest WHERE requestId = \(key)", as: String.self) {
                    return try JSONDecoder().decode(T.self, from: Data(stored.utf8))
                }
            }
            let result = try body(tx)
            // A key is only looked for within one reconnect, so a day's worth is plenty to keep.
            try tx.query("""
                WITH old AS (DELETE FROM appliedRequest WHERE appliedAt < now() - interval '1 day')
                INSERT INTO appliedRequest (requestId, result, appliedAt) VALUES (\(key), \(try encodeJSON(result)), now())
                ON CONFLICT (requestId) DO UPDATE SET result = excluded.result
                """)
            return result
        }
    }

    /// Statements outside a transaction, each its own; safe to run again.
    func read<T: Sendable>(_ body: @escaping @Sendable (PostgresTransaction) throws -> T) async throws -> T {
        try await withConnection(body)
    }

    private func migrate() async throws {
        try await transaction(replay: .safe) { tx in
            // One migrator at a time, even with several workers starting together.
            try tx.query("SELECT pg_advisory_xact_lock(7142014)")
            try tx.query("CREATE TABLE IF NOT EXISTS shelfscanMigration (name text PRIMARY KEY, appliedAt timestamptz NOT NULL)")
            let done = Set(try tx.query("SELECT name FROM shelfscanMigration").map { try $0.decode(String.self) })
            for migration in PostgresSchema.migrations where !done.contains(migration.name) {
                for statement in migration.statements { try tx.query(PostgresQuery(unsafeSQL: statement)) }
                try tx.query("INSERT INTO shelfscanMigration (name, appliedAt) VALUES (\(migration.name), now())")
            }
        }
    }

    public func appliedMigrations() async throws -> [String] {
        try await read { tx in try tx.query("SELECT name FROM shelfscanMigration ORDER BY appliedAt, name").map { try $0.decode(String.self) } }
            .sorted { a, b in
                let order = PostgresSchema.migrations.map(\.name)
                return (order.firstIndex(of: a) ?? .max) < (order.firstIndex(of: b) ?? .max)
            }
    }

    // MARK: Filing

    public func photoStatus(contentHash: String) async throws -> FiledPhotoStatus? {
        try await read { tx in try Self.photoStatus(contentHash, in: tx) }
    }

    private static func photoStatus(_ contentHash: String, in tx: PostgresTransaction) throws -> FiledPhotoStatus? {
        guard let row = try tx.query("""
            SELECT p.id, p.contentHash, p.originalImagePath, p.filedAt, COUNT(w.id),
                   COUNT(w.id) FILTER (WHERE w.reviewStatus = 'needsReview')
            FROM photo p LEFT JOIN work w ON w.photoId = p.id WHERE p.contentHash = \(contentHash) GROUP BY p.id
            """).first else { return nil }
        let (id, hash, path, filed, total, pending) = try row.decode((Int64, String, String, Date, Int64, Int64).self)
        return FiledPhotoStatus(photoID: id, contentHash: hash, originalImagePath: path, filedAt: filed,
                                workCount: Int(total), pendingCount: Int(pending))
    }

    public func claimPhoto(contentHash: String, worker: String, lease: TimeInterval) async throws -> Bool {
        // Safe to replay: a claim of ours is renewed, and a photo filed meanwhile is not claimed.
        try await transaction(replay: .safe) { tx in
            if try Self.photoStatus(contentHash, in: tx) != nil { return false }
            // Taken over only when the holder's lease ran out (a dead worker), or it is ours already.
            let got = try tx.query("""
                INSERT INTO photoClaim (contentHash, worker, expiresAt)
                VALUES (\(contentHash), \(worker), now() + make_interval(secs => \(lease)))
                ON CONFLICT (contentHash) DO UPDATE SET worker = excluded.worker, expiresAt = excluded.expiresAt
                WHERE photoClaim.expiresAt < now() OR photoClaim.worker = excluded.worker
                RETURNING worker
                """)
            return !got.isEmpty
        }
    }

    public func releasePhoto(contentHash: String, worker: String) async throws {
        try await transaction(replay: .safe) { tx in try tx.query("DELETE FROM photoClaim WHERE contentHash = \(contentHash) AND worker = \(worker)") }
    }

    // MARK: Reading Works

    private static let summaryColumns = """
        w.id, w.title, w.reviewStatus, w.readingConfidence, w.detectionConfidence, w.photoContentHash,
        w.spineRow, w.spinePosition, w.revision
        """

    private static func summaries(in tx: PostgresTransaction, where clause: String, order: String, limit: Int?, offset: Int) throws -> [WorkSummary] {
        let rows = try tx.query(PostgresQuery(unsafeSQL: """
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

    public func pendingCount() async throws -> Int {
        try await read { tx in Int(try tx.scalar("SELECT COUNT(*) FROM work WHERE reviewStatus = 'needsReview'", as: Int64.self) ?? 0) }
    }

    public func pendingSummaries(limit: Int?, offset: Int) async throws -> [WorkSummary] {
        try await read { tx in try Self.summaries(in: tx, where: "w.reviewStatus = 'needsReview'", order: "w.id", limit: limit, offset: offset) }
    }

    public func librarySummaries(limit: Int?, offset: Int) async throws -> [WorkSummary] {
        try await read { tx in try Self.summaries(in: tx, where: "w.reviewStatus != 'needsReview'", order: "w.normalizedTitle, w.id", limit: limit, offset: offset) }
    }

    public func work(id: Work.ID) async throws -> Work? {
        try await read { tx in try tx.loadWork(id) }
    }

    public func works(includePending: Bool) async throws -> [Work] {
        try await read { tx in
            try tx.loadWorks(where: includePending ? "" : "reviewStatus != 'needsReview'")
        }
    }

    package func claimPending(reviewer: String, lease: TimeInterval, after: Work.ID?) async throws -> Work.ID? {
        if let id = try await claim(reviewer: reviewer, lease: lease, after: after ?? 0) { return id }
        return (after ?? 0) > 0 ? try await claim(reviewer: reviewer, lease: lease, after: 0) : nil
    }

    /// Claims the first pending Work after `after` that is free (or already `reviewer`'s), and gives back any
    /// other claim `reviewer` held: one Work in front of each reviewer at a time.
    private func claim(reviewer: String, lease: TimeInterval, after: Int64) async throws -> Int64? {
        // Safe to replay: a Work the reviewer holds counts as free to them, so a second run claims the same Work
        // again (or one freed meanwhile), and the reviewer still holds exactly one.
        try await transaction(replay: .safe) { tx in
            // Each try is a new statement, so a new snapshot: a claim another reviewer committed since the last
            // try is seen. The upsert only takes over an expired claim (or our own), never a live one.
            for _ in 0..<20 {
                // SKIP LOCKED: a Work another reviewer is claiming this instant is passed over, not waited for.
                guard let candidate = try tx.scalar("""
                    SELECT w.id FROM work w LEFT JOIN reviewClaim c ON c.workId = w.id
                    WHERE w.reviewStatus = 'needsReview' AND w.id > \(after)
                      AND (c.workId IS NULL OR c.expiresAt < now() OR c.reviewer = \(reviewer))
                    ORDER BY (c.reviewer IS NOT DISTINCT FROM \(reviewer) AND \(after) = 0) DESC, w.id
                    LIMIT 1 FOR UPDATE OF w SKIP LOCKED
                    """, as: Int64.self) else { break }
                let won = try tx.query("""
                    INSERT INTO reviewClaim (workId, reviewer, expiresAt)
                    VALUES (\(candidate), \(reviewer), now() + make_interval(secs => \(lease)))
                    ON CONFLICT (workId) DO UPDATE SET reviewer = excluded.reviewer, expiresAt = excluded.expiresAt
                    WHERE reviewClaim.expiresAt < now() OR reviewClaim.reviewer = excluded.reviewer
                    RETURNING workId
                    """)
                if !won.isEmpty {
                    try tx.query("DELETE FROM reviewClaim WHERE reviewer = \(reviewer) AND workId != \(candidate)")
                    return candidate
                }
            }
            try tx.query("DELETE FROM reviewClaim WHERE reviewer = \(reviewer)")
            return nil
        }
    }

    public func saveCursor(_ workID: Work.ID?, session: String, date: Date) async throws {
        try await transaction(replay: .safe) { tx in
            try tx.query("""
                INSERT INTO reviewCursor (session, workId, updatedAt) VALUES (\(session), \(workID), \(date))
                ON CONFLICT (session) DO UPDATE SET workId = excluded.workId, updatedAt = excluded.updatedAt
                """)
        }
    }

    public func cursor(session: String) async throws -> Work.ID? {
        try await read { tx in try tx.query("SELECT workId FROM reviewCursor WHERE session = \(session)").first?.decode(Int64?.self) }
    }

    public func pendingNeighbour(of id: Work.ID, toTheRight: Bool) async throws -> Work? {
        try await read { tx in
            // As on SQLite: a piece of a split shares its neighbour's position, so equal positions count, by ID.
            let neighbour = try tx.rows("""
                SELECT n.id FROM work w JOIN work n ON n.photoId = w.photoId AND n.spineRow = w.spineRow
                WHERE w.id = $1 AND n.id != w.id AND n.reviewStatus = 'needsReview'
                  AND n.spinePosition \(toTheRight ? ">=" : "<=") w.spinePosition
                ORDER BY n.spinePosition \(toTheRight ? "ASC" : "DESC"), n.id \(toTheRight ? "ASC" : "DESC") LIMIT 1
                """, id).first.map { try $0.decode(Int64.self) }
            return try neighbour.flatMap { try tx.loadWork($0) }
        }
    }

    public func pendingWorks(photoContentHash: String, row: Int?) async throws -> [Work] {
        try await read { tx in
            try tx.loadWorks(where: "photoContentHash = $1 AND reviewStatus = 'needsReview'" + (row == nil ? "" : " AND spineRow = $2"),
                          binding: [photoContentHash] + (row.map { [$0] } ?? []), orderBy: "spineRow, spinePosition, id")
        }
    }

    public func works(photoContentHash: String) async throws -> [Work] {
        try await read { tx in
            try tx.loadWorks(where: "photoContentHash = $1", binding: [photoContentHash], orderBy: "spineRow, spinePosition, id")
        }
    }

    public func reviewStatuses(ids: [Work.ID]) async throws -> [Work.ID: ReviewStatus] {
        guard !ids.isEmpty else { return [:] }
        return try await read { tx in
            var statuses: [Work.ID: ReviewStatus] = [:]
            for row in try tx.query("SELECT id, reviewStatus FROM work WHERE id = ANY(\(ids))") {
                let (id, status) = try row.decode((Int64, String).self)
                statuses[id] = ReviewStatus(rawValue: status) ?? .needsReview
            }
            return statuses
        }
    }

    public func journal(limit: Int) async throws -> [JournalEntry] {
        try await read { tx in
            try tx.query("SELECT id, session, kind, workId, summary, decidedAt, undoneAt IS NOT NULL FROM journal ORDER BY id DESC LIMIT \(limit)")
                .map {
                    let (id, session, kind, work, summary, decided, undone) = try $0.decode((Int64, String, String, Int64, String, Date, Bool).self)
                    return JournalEntry(id: id, session: session, kind: kind, workID: work, summary: summary, decidedAt: decided, undone: undone)
                }
        }
    }

    public func liveJournal(kinds: [String]) async throws -> [LiveJournalRow] {
        try await read { tx in
            try tx.query("SELECT id, kind, workId, decidedAt, before FROM journal WHERE undoneAt IS NULL AND kind = ANY(\(kinds)) ORDER BY id")
                .map {
                    let (id, kind, work, decided, before) = try $0.decode((Int64, String, Int64, Date, String).self)
                    return LiveJournalRow(id: id, kind: kind, workID: work, decidedAt: decided, before: before)
                }
        }
    }

    public func duplicateIndex() async throws -> DuplicateIndex { DuplicateIndex(works: try await works(includePending: false)) }

    // MARK: Crops

    /// The local cache of crops read from the server, kept between runs: `shelfscan-<uid>/crops-<host>-<port>-<db>`
    /// in the temporary directory, the first part made by this user, only for this user (0700). A cached crop is
    /// shown without asking the server, so a folder another user could make first in a shared `/tmp`, and fill,
    /// must not be it: when `shelfscan-<uid>` is not this user's own private directory (someone else's, a link,
    /// open to others), the cache is a fresh folder of this process alone.
    static func cropCache(for location: PostgresLocation,
                          in temporary: URL = FileManager.default.temporaryDirectory) -> URL {
        let mine = temporary.appendingPathComponent("shelfscan-\(getuid())", isDirectory: true)
        _ = mkdir(mine.path, 0o700)  // fails harmlessly when it is there: what is there is checked next
        var info = stat()
        if lstat(mine.path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(), info.st_mode & 0o077 == 0 {
            let name = "crops-\(location.host)-\(location.port)-\(location.database)".replacingOccurrences(of: "/", with: "_")
            return mine.appendingPathComponent(name, isDirectory: true)
        }
        return temporary.appendingPathComponent("shelfscan-crops-\(UUID().uuidString)", isDirectory: true)
    }

    /// A crop already in the local cache is answered without a connection; one not yet there is fetched.
    public func cropURL(for work: Work) async -> URL? {
        guard work.id != nil, let name = work.spine?.cropFile else { return nil }
        let cached = cropsDirectory.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: cached.path) { return cached }
        return try? await read { tx in tx.cropURL(for: work) }
    }

    /// The stored crop's bytes (for copying a library between engines).
    public func cropJPEG(workID: Work.ID) async throws -> [UInt8]? {
        try await read { tx in try tx.scalar("SELECT jpeg FROM cropImage WHERE workId = \(workID)", as: ByteBuffer.self).map { Array($0.readableBytesView) } }
    }

    // MARK: Library

    public func stats() async throws -> LibraryStats {
        try await read { tx in
            func count(_ sql: String) throws -> Int { Int(try tx.scalar(PostgresQuery(unsafeSQL: sql), as: Int64.self) ?? 0) }
            var byStatus: [String: Int] = [:]
            for row in try tx.query(PostgresQuery(unsafeSQL: LibraryStats.byReadingStatusSQL)) {
                let (s, n) = try row.decode((String, Int64).self)
                byStatus[s] = Int(n)
            }
            return try LibraryStats(counting: count, byReadingStatus: byStatus)
        }
    }

}

/// What ends first while a lease is awaited: the work done on the connection, or the wait for it.
private enum LeaseLeg<T: Sendable>: Sendable {
    case done(T)
    case timer
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
    /// `?pool_size=8`: how many connections a process holds, so how many of its transactions run at once (a
    /// server with many reviewers may want more than the default; the server's `max_connections` is shared by
    /// every process).
    var poolSize: Int?

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
        if let text = c.queryItems?.first(where: { $0.name == "pool_size" })?.value {
            guard let size = Int(text), (1...64).contains(size) else {
                throw LibraryError.cannotOpen(path: shown, reason: "pool_size=\(text) is not a number of connections from 1 to 64")
            }
            poolSize = size
        }
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
