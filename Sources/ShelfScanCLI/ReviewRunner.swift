import BookModel
import Foundation
import LibraryCore
import ShelfImage
import ShelfScan

/// Carries out a review session's effects against the store, terminal-free, so a test can drive a whole
/// session (keys in, database state out) without a terminal.
struct ReviewRunner {
    let store: any LibraryStoring
    /// Who holds the Work on screen, on a shared library: this process (`processReviewer`), whose decisions the
    /// store never refuses as another reviewer's.
    let reviewer: String
    var session: ReviewSession
    var defaults: ReviewDefaults
    /// The reviewed library in memory, kept current as this session verifies and merges.
    var index: DuplicateIndex
    /// Catalogue look-up for the Work on screen, when a catalogue is configured.
    var catalogLookup: (@Sendable (Work) -> [CatalogCandidate])?
    /// Runs the person's editor on a form and returns what they saved (nil: it could not run).
    var editor: ((String) -> String?)?
    /// Shows a file in the desktop viewer; returns the line to show the person.
    var opener: ((String) -> String)?
    /// Where `/` looks, in the order hits are listed: the library first, then the catalogue and any other.
    var searchProviders: [any SearchProvider] {
        didSet {
            let remote = searchProviders.filter(\.isRemote).map(\.name)
            session.remoteSearch = remote.isEmpty ? nil : remote.joined(separator: " and ")
        }
    }
    private(set) var quit = false

    init(store: any LibraryStoring, session: ReviewSession, defaults: ReviewDefaults = ReviewDefaults(),
         catalogLookup: (@Sendable (Work) -> [CatalogCandidate])? = nil, reviewer: String = processReviewer) async throws {
        self.store = store
        self.reviewer = reviewer
        var session = session
        session.hasCatalog = catalogLookup != nil
        self.session = session
        self.catalogLookup = catalogLookup
        self.defaults = defaults
        searchProviders = [LibrarySearch(store: store)]
        index = try await store.duplicateIndex()
    }

    mutating func start() async {
        let effects = session.start()
        await perform(effects)
    }

    mutating func send(_ key: Key) async {
        await perform(session.handle(.key(key)))
    }

    private mutating func perform(_ effects: [ReviewEffect]) async {
        var queue = effects
        while !queue.isEmpty {
            let effect = queue.removeFirst()
            let event: ReviewEvent?
            do {
                switch effect {
                case .loadResume:
                    event = loaded(try await claim(from: try await store.resumeItem(session: session.sessionName)?.work.id))
                case let .loadNext(after):
                    event = loaded(try await store.claimNextPending(reviewer: reviewer, lease: reviewLease, after: after))
                case let .loadItem(id):
                    event = loaded(try await claim(from: id))
                case let .decide(decision):
                    let receipt = try await store.review(decision, defaults: defaults)
                    if let kept = receipt.resultingWorkID, let work = try await store.work(id: kept) { index.add(work) }
                    if case .merge = decision.action { index.remove(decision.workID) }
                    event = .decided(receipt)
                case .undo:
                    let receipt = try await store.undoLast(session: session.sessionName)
                    index = try await store.duplicateIndex()
                    event = .undone(receipt)
                case let .saveCursor(id):
                    try await store.saveCursor(id, session: session.sessionName)
                    event = nil
                case let .openEditor(form):
                    event = .editorClosed(editor?(form))
                case let .loadGroup(hash):
                    event = .groupLoaded(try await store.pendingWorks(photoContentHash: hash))
                case let .decideBatch(decisions, summary):
                    let receipt = try await store.review(batch: decisions, summary: summary, defaults: defaults)
                    for d in decisions { if let w = try await store.work(id: d.workID), w.reviewStatus != .needsReview { index.add(w) } }
                    event = .batchDecided(receipt, count: decisions.count)
                case let .split(id, revision, fraction):
                    event = try await split(id, revision: revision, at: fraction)
                case let .join(id, revision):
                    event = try await join(id, revision: revision)
                case let .search(text, remote):
                    var hits: [SearchHit] = [], unavailable: [String] = []
                    for provider in searchProviders where remote || !provider.isRemote {
                        do { hits += try await provider.search(text, limit: 9) } catch { unavailable.append("\(error)") }
                    }
                    event = .searched(Array(hits.prefix(9)), remote: remote, unavailable: unavailable)
                case let .open(path):
                    event = .opened(opener?(path) ?? "No viewer here: the file is \(path)")
                case .quit:
                    quit = true
                    event = nil
                }
            } catch let error as LibraryError {
                event = .failed(error)
            } catch {
                event = .failed(.importFailed("\(error)"))
            }
            if let event { queue.append(contentsOf: session.handle(event)) }
        }
    }

    /// The first pending Work from `id` on (round past the queue's end) that nobody else holds, now held by this
    /// reviewer: on a shared library two people are never shown the same Work. On SQLite, the plain queue.
    private func claim(from id: Work.ID?) async throws -> ReviewItem? {
        try await store.claimNextPending(reviewer: reviewer, lease: reviewLease, after: id.map { $0 - 1 })
    }

    private func split(_ id: Work.ID, revision: Int, at fraction: Double) async throws -> ReviewEvent {
        do {
            return .reshaped(try await SpineReshape.split(id, revision: revision, at: fraction, in: store, session: session.sessionName))
        } catch let failure as SpineReshape.Failure {
            return .failedSoftly(failure.description)
        }
    }

    private func join(_ id: Work.ID, revision: Int) async throws -> ReviewEvent {
        do {
            return .reshaped(try await SpineReshape.join(id, revision: revision, in: store, session: session.sessionName))
        } catch let failure as SpineReshape.Failure {
            return .failedSoftly(failure.description)
        }
    }

    private func loaded(_ item: ReviewItem?) -> ReviewEvent {
        .loaded(item, item.map { index.candidates(for: $0.work, threshold: 0.75, limit: 5) } ?? [],
                catalog: item.flatMap { i in catalogLookup.map { $0(i.work) } } ?? [])
    }
}
