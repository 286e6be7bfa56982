import BookModel
import Library

/// Carries out a review session's effects against the store, terminal-free, so a test can drive a whole
/// session (keys in, database state out) without a terminal.
struct ReviewRunner {
    let store: any LibraryStoring
    var session: ReviewSession
    var defaults: ReviewDefaults
    /// The reviewed library in memory, kept current as this session verifies and merges.
    var index: DuplicateIndex
    /// Catalogue look-up for the Work on screen, when a catalogue is configured.
    var catalogLookup: (@Sendable (Work) -> [CatalogCandidate])?
    /// Runs the person's editor on a form and returns what they saved (nil: it could not run).
    var editor: ((String) -> String?)?
    private(set) var quit = false

    init(store: any LibraryStoring, session: ReviewSession, defaults: ReviewDefaults = ReviewDefaults(),
         catalogLookup: (@Sendable (Work) -> [CatalogCandidate])? = nil) throws {
        self.store = store
        var session = session
        session.hasCatalog = catalogLookup != nil
        self.session = session
        self.catalogLookup = catalogLookup
        self.defaults = defaults
        index = try store.duplicateIndex()
    }

    mutating func start() {
        let effects = session.start()
        perform(effects)
    }

    mutating func send(_ key: Key) {
        perform(session.handle(.key(key)))
    }

    private mutating func perform(_ effects: [ReviewEffect]) {
        var queue = effects
        while !queue.isEmpty {
            let effect = queue.removeFirst()
            let event: ReviewEvent?
            do {
                switch effect {
                case .loadResume:
                    event = loaded(try store.resumeItem(session: session.sessionName))
                case let .loadNext(after):
                    event = loaded(try store.nextPending(after: after))
                case let .loadItem(id):
                    let item = try store.reviewItem(id: id)
                    event = loaded(item?.work.reviewStatus == .needsReview ? item : try store.nextPending(after: id))
                case let .decide(decision):
                    let receipt = try store.review(decision, defaults: defaults)
                    if let kept = receipt.resultingWorkID, let work = try store.work(id: kept) { index.add(work) }
                    if case .merge = decision.action { index.remove(decision.workID) }
                    event = .decided(receipt)
                case .undo:
                    let receipt = try store.undoLast(session: session.sessionName)
                    index = try store.duplicateIndex()
                    event = .undone(receipt)
                case let .saveCursor(id):
                    try store.saveCursor(id, session: session.sessionName)
                    event = nil
                case let .openEditor(form):
                    event = .editorClosed(editor?(form))
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

    private func loaded(_ item: ReviewItem?) -> ReviewEvent {
        .loaded(item, item.map { index.candidates(for: $0.work, threshold: 0.75, limit: 5) } ?? [],
                catalog: item.flatMap { i in catalogLookup.map { $0(i.work) } } ?? [])
    }
}
