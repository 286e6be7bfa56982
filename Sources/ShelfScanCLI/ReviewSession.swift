import BookModel
import LibraryCore
import SpineReading

/// A key the review session understands, already decoded from the terminal's bytes.
enum Key: Equatable, Sendable {
    case char(Character)
    case enter
    case backspace
    case escape
    /// Ctrl-C or Ctrl-D: leave at once. Every decision is already committed, so nothing is lost.
    case interrupt
    /// Ctrl-O in the edit form: edit all fields at once in $VISUAL/$EDITOR. (Ctrl-E is readline's end of
    /// line, which people type without thinking.)
    case openEditor
    case tab
    case left, right, up, down, home, end, delete, pageUp, pageDown
    /// Ctrl-Left and Ctrl-Right: a word at a time, as Alt-B and Alt-F.
    case ctrlLeft, ctrlRight
    /// A control key other than those above, by its lowercase letter: `.ctrl("u")` is Ctrl-U.
    case ctrl(Character)
    /// Alt (Meta) with a key, sent by terminals as Esc then the key: `.alt("b")` is Alt-B.
    case alt(Character)
    /// A whole line, from input that is not a raw terminal (a pipe, a script): a key in the decision
    /// prompt (empty = Enter), the field's text in the edit form.
    case line(String)
}

/// What the session asks its driver to do. The session itself never touches the store or the terminal,
/// so tests feed it keys and results and read back its state.
enum ReviewEffect: Equatable, Sendable {
    case loadResume
    case loadNext(after: Work.ID?)
    case loadItem(Work.ID)
    case decide(ReviewDecision)
    case undo
    case saveCursor(Work.ID?)
    /// Let the person edit this YAML form in their editor; the result comes back as `.editorClosed`.
    case openEditor(String)
    /// Show this file in the desktop's viewer (`xdg-open`); the outcome comes back as `.opened`.
    case open(String)
    /// The pending Works of this photo, for the bulk menu's counts (`.groupLoaded`).
    case loadGroup(photoContentHash: String)
    /// Several decisions as one (one transaction, one undo).
    case decideBatch([ReviewDecision], summary: String)
    /// Cut the box in two at `fraction` of its width; the pieces come back as `.reshaped`.
    case split(Work.ID, revision: Int, at: Double)
    /// Join the box with its right-hand neighbour on the shelf.
    case join(Work.ID, revision: Int)
    /// Look for a book by the words typed (`.searched`); `remote` asks the online providers too.
    case search(String, remote: Bool)
    case quit
}

/// What the driver reports back.
enum ReviewEvent: Equatable, Sendable {
    case key(Key)
    /// A Work to show (nil: the queue is empty) with its possible duplicates.
    case loaded(ReviewItem?, [DuplicateCandidate], catalog: [CatalogCandidate] = [])
    case decided(DecisionReceipt)
    case undone(UndoReceipt)
    case failed(LibraryError)
    /// The edited form, or nil when the editor could not run or exited with an error.
    case editorClosed(String?)
    /// What opening a file in the viewer did, as a line for the person.
    case opened(String)
    case groupLoaded([Work])
    /// Something the person asked for cannot be done here; the Work on screen stays, with this line.
    case failedSoftly(String)
    case batchDecided(DecisionReceipt, count: Int)
    case reshaped(ReshapeReceipt)
    /// Hits for the words typed, library first; `unavailable` says which sources could not answer and why.
    case searched([SearchHit], remote: Bool, unavailable: [String])
}

/// A book from the configured catalogue that the spine's reading resembles.
struct CatalogCandidate: Equatable, Sendable {
    var title: String
    var authors: [String]
    var isbn: String?
    /// Calibrated probability that this is the book (see `shelfscan match`).
    var score: Double
}

/// The interactive review, as a value: the Work on screen, the mode (deciding, editing a field, picking a
/// merge target, help), and the last message. `handle(_:)` is the whole state machine.
struct ReviewSession: Equatable, Sendable {
    enum Mode: Equatable, Sendable {
        case loading
        case deciding
        case editing(EditForm)
        case pickingMerge
        case pickingCatalog
        /// The bulk menu over this photo's pending Works (`group`).
        case bulk
        /// Choosing where to cut the box in two (a fraction of its width, left to right in the photo).
        case splitting(Double)
        /// Typing words to look for; `searchHits` follow the text.
        case searching(LineEditor)
        /// The hits shown, waiting for a number.
        case pickingSearch
        case help
        case empty
        case finished
    }

    /// The inline edit: one field at a time, each checked by its rule before moving on.
    struct EditForm: Equatable, Sendable {
        enum Field: String, CaseIterable, Sendable { case title, authors, isbn, year }
        var field: Field = .title
        /// The field being typed, with readline's keys.
        var editor = LineEditor()
        var values: [Field: String] = [:]
        var error: String?
        /// The title line the author/title splits were taken from, and the split shown now (Tab cycles).
        var splitSource: String?
        var splitIndex = -1

        var buffer: String {
            get { editor.text }
            set { editor = LineEditor(newValue) }
        }
    }

    enum Default: Equatable, Sendable { case verify, edit, merge(Int) }

    let sessionName: String
    var mode: Mode = .loading
    var item: ReviewItem?
    var candidates: [DuplicateCandidate] = []
    var catalog: [CatalogCandidate] = []
    /// Whether a catalogue is configured at all (to say so when C is pressed without one).
    var hasCatalog = false
    var message: String?
    /// Decisions made in this session (shown in the footer, a reason to feel good).
    var decided = 0
    /// How many Works each journal entry of this session decided (a bulk verify many, a split none), so
    /// undo takes back the right count.
    private var decidedPerEntry: [Int] = []
    /// Below this reading confidence the reading is shown in yellow, below half of it in red.
    var confidenceThreshold = 0.6
    /// The spine picture turned half round (T), for the spines printed bottom to top.
    var flipped = false
    /// This photo's pending Works while the bulk menu is open.
    var group: [Work] = []
    /// Bulk verify takes readings at or above this confidence (+ and - in the menu change it).
    var bulkThreshold = 0.8
    var searchHits: [SearchHit] = []
    /// What the last search looked for (kept so / opens on it again).
    var searchText = ""
    /// The online providers `/` asks on Enter ("OpenLibrary"), nil when none is configured.
    var remoteSearch: String?
    /// The words the online providers were last asked for, so a second Enter picks instead of asking again.
    private var remoteAskedFor: String?

    init(sessionName: String = "review") { self.sessionName = sessionName }

    var work: Work? { item?.work }

    var isEditing: Bool { if case .editing = mode { true } else { false } }

    /// What Enter does: merge when the library already has this book (seed 004's 0.90 bar), verify when the
    /// reading can be verified as it is, else edit.
    var defaultAction: Default {
        guard let work else { return .edit }
        if let top = candidates.first, top.reason.similarity >= DuplicateRule.fuzzyThreshold { return .merge(1) }
        return work.validationIssues(forVerification: true).isEmpty ? .verify : .edit
    }

    mutating func start() -> [ReviewEffect] {
        mode = .loading
        return [.loadResume]
    }

    mutating func handle(_ event: ReviewEvent) -> [ReviewEffect] {
        switch event {
        case let .loaded(item, candidates, catalog):
            if item?.work.id != self.item?.work.id { flipped = false }
            self.item = item
            self.candidates = candidates
            self.catalog = catalog
            mode = item == nil ? .empty : .deciding
            return [.saveCursor(item?.work.id)]
        case let .decided(receipt):
            decided += 1
            decidedPerEntry.append(1)
            message = receipt.summary.prefix(1).uppercased() + receipt.summary.dropFirst() + " · U undoes"
            mode = .loading
            return [.loadNext(after: receipt.workID)]
        case let .undone(receipt):
            decided = max(0, decided - (decidedPerEntry.popLast() ?? 1))
            message = receipt.summary.prefix(1).uppercased() + receipt.summary.dropFirst()
            mode = .loading
            return receipt.restoredWorkIDs.first.map { [.loadItem($0)] } ?? [.loadNext(after: nil)]
        case let .failed(error):
            return failed(error)
        case let .editorClosed(text):
            return editorClosed(text)
        case let .opened(text):
            message = text
            return []
        case let .failedSoftly(text):
            message = text
            mode = item == nil ? .empty : .deciding
            return []
        case let .groupLoaded(works):
            group = works
            mode = .bulk
            message = nil
            return []
        case let .batchDecided(receipt, count):
            decided += count
            decidedPerEntry.append(count)
            message = receipt.summary.prefix(1).uppercased() + receipt.summary.dropFirst() + " · U undoes"
            mode = .loading
            return [.loadNext(after: work?.id)]
        case let .reshaped(receipt):
            decidedPerEntry.append(0)
            message = receipt.summary.prefix(1).uppercased() + receipt.summary.dropFirst() + " · U undoes"
            mode = .loading
            return receipt.created.first.map { [.loadItem($0)] } ?? [.loadNext(after: nil)]
        case let .searched(hits, remote, unavailable):
            searchHits = hits
            let why = unavailable.joined(separator: "; ")
            if !why.isEmpty { message = why.prefix(1).uppercased() + why.dropFirst() + "." } else if remote { message = nil }
            if remote {
                if !hits.isEmpty { mode = .pickingSearch } else if message == nil { message = "Nothing found for “\(searchText)”." }
            }
            return []
        case let .key(key):
            return handle(key)
        }
    }

    private mutating func failed(_ error: LibraryError) -> [ReviewEffect] {
        message = error.description
        switch error {
        case let .invalid(_, validation):
            // Back to the first field that broke a rule, with the rule shown.
            var form = EditForm()
            if let issue = validation.issues.first {
                form.field = EditForm.Field(rawValue: issue.field) ?? (issue.field == "author" ? .authors : .title)
                form.error = issue.description
            }
            form.buffer = currentValue(form.field)
            mode = .editing(form)
            return []
        case .conflict, .notPending, .notFound:
            mode = .loading
            return [item.map { .loadItem($0.work.id!) } ?? .loadNext(after: nil)]
        default:
            if item != nil { mode = .deciding } else { mode = .empty }
            return []
        }
    }

    private mutating func handle(_ key: Key) -> [ReviewEffect] {
        if case let .line(text) = key {
            if case var .editing(form) = mode {
                form.buffer = text
                mode = .editing(form)
                return handle(.enter)
            }
            return handle(text.isEmpty ? .enter : .char(text.first!))
        }
        if key == .interrupt || (key == .ctrl("d") && !isEditing) {
            mode = .finished
            return [.saveCursor(item?.work.id), .quit]
        }
        switch mode {
        case .loading:
            return []
        case .finished:
            return []
        case .help:
            mode = item == nil ? .empty : .deciding
            return []
        case .empty:
            switch key {
            case .char("u"), .char("U"): return [.undo]
            case .char("q"), .char("Q"), .enter, .escape: mode = .finished; return [.saveCursor(nil), .quit]
            case .char("?"): mode = .help; return []
            default: return []
            }
        case .pickingMerge:
            if case let .char(c) = key, let n = c.wholeNumberValue, n >= 1, n <= candidates.count {
                return decide(.merge(into: candidates[n - 1].id))
            }
            mode = .deciding
            message = key == .escape ? nil : "Merge cancelled: press M, then the candidate's number."
            return []
        case .pickingCatalog:
            if case let .char(c) = key, let n = c.wholeNumberValue, n >= 1, n <= catalog.count {
                return decide(.edit(catalogEdit(catalog[n - 1])))
            }
            mode = .deciding
            message = key == .escape ? nil : "Cancelled: press C, then the catalogue entry's number."
            return []
        case let .editing(form):
            return edit(form, key)
        case .deciding:
            return decideKey(key)
        case .bulk:
            return bulkKey(key)
        case let .splitting(at):
            return splitKey(key, at: at)
        case let .searching(editor):
            return searchKey(key, editor)
        case .pickingSearch:
            if case let .char(c) = key, let n = c.wholeNumberValue, n >= 1, n <= min(9, searchHits.count) {
                return take(searchHits[n - 1])
            }
            mode = .searching(LineEditor(searchText))
            return []
        }
    }

    // MARK: Bulk decisions

    /// This photo's Works that bulk verify would take (`BulkVerify`'s rule, the server's too).
    func bulkVerifiable(shelf: Int?) -> [Work] {
        group.filter { BulkVerify.takes($0, row: shelf, threshold: bulkThreshold) }
    }

    /// Boxes with nothing read on them: mostly not books (a cabinet side, a shelf edge, a label).
    var bulkUnread: [Work] { group.filter(\.hasUnreadTitle) }

    private mutating func bulkKey(_ key: Key) -> [ReviewEffect] {
        let shelf = work?.spine?.row
        let sessionName = self.sessionName
        func decisions(_ works: [Work], _ action: ReviewAction) -> [ReviewDecision] {
            works.compactMap { w in w.id.map { ReviewDecision(workID: $0, action: action, expectedRevision: w.revision, session: sessionName) } }
        }
        let percent = "\(Int((bulkThreshold * 100).rounded()))%"
        switch key {
        case .char("p"), .char("P"), .char("s"), .char("S"):
            let row = key == .char("p") || key == .char("P") ? nil : shelf
            let verifying = BulkVerify.decisions(group, row: row, threshold: bulkThreshold, session: sessionName)
            guard !verifying.isEmpty else { message = "Nothing on this \(row == nil ? "photo" : "shelf") is read at \(percent) or better."; return [] }
            mode = .loading
            return [.decideBatch(verifying, summary: BulkVerify.summary(count: verifying.count, row: row, threshold: bulkThreshold))]
        case .char("r"), .char("R"):
            let works = bulkUnread
            guard !works.isEmpty else { message = "Every box on this photo has something read on it."; return [] }
            mode = .loading
            return [.decideBatch(decisions(works, .reject), summary: "rejected \(works.count) unread boxes of this photo")]
        case .char("+"), .char("="), .up, .right:
            bulkThreshold = min(1, bulkThreshold + 0.05)
        case .char("-"), .down, .left:
            bulkThreshold = max(0.05, bulkThreshold - 0.05)
        default:
            mode = .deciding
            message = key == .escape ? nil : "Bulk cancelled."
        }
        return []
    }

    // MARK: Split and join

    private mutating func splitKey(_ key: Key, at: Double) -> [ReviewEffect] {
        guard let work, let id = work.id else { return [] }
        switch key {
        case .left, .char("h"): mode = .splitting(max(0.1, at - 0.05))
        case .right, .char("l"): mode = .splitting(min(0.9, at + 0.05))
        case .enter, .char("|"):
            mode = .loading
            return [.split(id, revision: work.revision, at: at)]
        default:
            mode = .deciding
            message = "Split cancelled."
        }
        return []
    }

    // MARK: Search

    private mutating func searchKey(_ key: Key, _ editor: LineEditor) -> [ReviewEffect] {
        var editor = editor
        switch key {
        case .escape:
            mode = .deciding
            return []
        case .enter, .down, .tab:
            if key == .enter, remoteSearch != nil, remoteAskedFor != editor.text, CellWidth.of(editor.text) >= 2 {
                remoteAskedFor = editor.text
                return [.search(editor.text, remote: true)]
            }
            guard !searchHits.isEmpty else { message = "Nothing found for “\(editor.text)”."; return [] }
            mode = .pickingSearch
            message = nil
            return []
        default:
            guard editor.handle(key) else { return [] }
            mode = .searching(editor)
            searchText = editor.text
            return [.search(editor.text, remote: false)]
        }
    }

    /// A hit in the library merges this spine into that book; one from elsewhere fills in the reading, and a
    /// provider's hit brings its whole record (IDs, edition, year, subjects) along.
    private mutating func take(_ hit: SearchHit) -> [ReviewEffect] {
        if let id = hit.workID { return decide(.merge(into: id)) }
        return decide(.edit(WorkEdit(title: hit.title, authors: hit.authors.isEmpty ? nil : hit.authors,
                                     isbn: hit.record == nil ? hit.isbn.flatMap { ISBN.valid($0) } : nil, enrichment: hit.record)))
    }

    private mutating func decideKey(_ key: Key) -> [ReviewEffect] {
        guard let work else { return [] }
        message = nil
        var key = key
        if key == .enter {
            switch defaultAction {
            case .verify: key = .char("v")
            case .edit: key = .char("e")
            case let .merge(n): return decide(.merge(into: candidates[n - 1].id))
            }
        }
        guard case let .char(c) = key else { return [] }
        switch c.lowercased() {
        case "v":
            let issues = work.validationIssues(forVerification: true)
            if let first = issues.first {
                message = "Cannot verify: \(first.description). Press E to edit."
                return []
            }
            return decide(.verify)
        case "e":
            var form = EditForm()
            form.buffer = currentValue(.title)
            mode = .editing(form)
            return []
        case "s":
            mode = .loading
            message = "Skipped “\(work.title)”; it comes back at the end."
            return [.loadNext(after: work.id)]
        case "r":
            return decide(.reject)
        case "m":
            guard !candidates.isEmpty else {
                message = "No merge candidates for this one."
                return []
            }
            if candidates.count == 1 { return decide(.merge(into: candidates[0].id)) }
            mode = .pickingMerge
            message = "Merge into which? Press 1-\(candidates.count) (Esc cancels)."
            return []
        case "c":
            guard hasCatalog else {
                message = "No catalogue configured: start the session with --catalog books.csv."
                return []
            }
            guard !catalog.isEmpty else {
                message = "Nothing in the catalogue resembles this reading. Press E to type it."
                return []
            }
            if catalog.count == 1 { return decide(.edit(catalogEdit(catalog[0]))) }
            mode = .pickingCatalog
            message = "Take which catalogue entry? Press 1-\(catalog.count) (Esc cancels)."
            return []
        case "u":
            return [.undo]
        case "t":
            flipped.toggle()
            return []
        case "b":
            guard let hash = work.spine?.photoContentHash else { message = "Bulk decisions need a spine from a scanned photo."; return [] }
            return [.loadGroup(photoContentHash: hash)]
        case "|":
            guard work.boundingBox != nil else { message = "This Work has no box on a photo to split."; return [] }
            mode = .splitting(0.5)
            message = "Split where? ←/→ move the cut (the line on the shelf), Enter splits, Esc cancels."
            return []
        case "j":
            guard let id = work.id, work.boundingBox != nil else { message = "This Work has no box on a photo to join."; return [] }
            mode = .loading
            return [.join(id, revision: work.revision)]
        case "/":
            mode = .searching(LineEditor(searchText))
            return searchText.isEmpty ? [] : [.search(searchText, remote: false)]
        case "o":
            guard let crop = item?.cropURL?.path else { message = "This spine has no crop file."; return [] }
            return [.open(crop)]
        case "p":
            guard let photo = work.originalImagePath else { message = "No photo is recorded for this spine."; return [] }
            return [.open(photo)]
        case "q":
            mode = .finished
            return [.saveCursor(work.id), .quit]
        case "?", "h":
            mode = .help
            return []
        default:
            message = "Unknown key \(c). Press ? for help."
            return []
        }
    }

    private mutating func decide(_ action: ReviewAction) -> [ReviewEffect] {
        guard let work, let id = work.id else { return [] }
        mode = .loading
        return [.decide(ReviewDecision(workID: id, action: action, expectedRevision: work.revision, session: sessionName))]
    }

    /// Taking a catalogue entry is an edit: its title, its authors (or the ones read, if it has none), its ISBN.
    private func catalogEdit(_ c: CatalogCandidate) -> WorkEdit {
        WorkEdit(title: c.title, authors: c.authors.isEmpty ? nil : c.authors, isbn: c.isbn.flatMap { ISBN.valid($0) })
    }

    /// The text a field starts with: what the spine said, except the unread placeholder.
    func currentValue(_ field: EditForm.Field) -> String {
        guard let work else { return "" }
        switch field {
        case .title: return work.hasUnreadTitle ? "" : work.title
        case .authors: return work.authors.map(\.name).joined(separator: "; ")
        case .isbn: return work.editions.first?.primaryISBN ?? ""
        case .year: return work.firstPublicationYear.map(String.init) ?? ""
        }
    }

    private mutating func edit(_ form: EditForm, _ key: Key) -> [ReviewEffect] {
        var form = form
        switch key {
        case .escape:
            mode = .deciding
            message = "Edit cancelled."
            return []
        case .tab:
            takeSplit(&form)
        case .up:
            // Back to the field before, keeping what was typed here (it is checked when Enter passes it again).
            let fields = EditForm.Field.allCases
            if let i = fields.firstIndex(of: form.field), i > 0 {
                form.values[form.field] = form.buffer
                form.field = fields[i - 1]
                form.buffer = form.values[form.field] ?? currentValue(form.field)
                form.error = nil
            }
        case .enter, .down:
            let value = form.buffer.trimmingCharacters(in: .whitespaces)
            if let problem = Self.check(form.field, value) {
                form.error = problem
                mode = .editing(form)
                return []
            }
            form.error = nil
            form.values[form.field] = value
            let fields = EditForm.Field.allCases
            if let i = fields.firstIndex(of: form.field), i + 1 < fields.count {
                form.field = fields[i + 1]
                form.buffer = form.values[form.field] ?? currentValue(form.field)
            } else {
                return decide(.edit(Self.edit(from: form.values)))
            }
        case .openEditor, .ctrl("o"):
            var values = form.values
            values[form.field] = form.buffer
            return [.openEditor(YAMLForm.render(EditForm.Field.allCases.map { ($0, values[$0] ?? currentValue($0)) }))]
        default:
            if form.editor.handle(key) { form.splitSource = nil; form.splitIndex = -1 }
        }
        mode = .editing(form)
        return []
    }

    /// The author/title splits of the title being typed, when no author is known yet.
    func splitOffers(_ form: EditForm) -> [(author: String, title: String)] {
        guard form.field == .title else { return [] }
        let authors = form.values[.authors] ?? currentValue(.authors)
        guard authors.trimmingCharacters(in: .whitespaces).isEmpty || form.splitSource != nil else { return [] }
        return AuthorTitleLine.splits(form.splitSource ?? form.buffer)
    }

    /// Tab: the next way to read the title line as author + title; after the last, the line as it was.
    private func takeSplit(_ form: inout EditForm) {
        let offers = splitOffers(form)
        guard !offers.isEmpty else { return }
        let source = form.splitSource ?? form.buffer
        let next = form.splitIndex + 1
        if next >= offers.count {
            form.buffer = source
            form.values[.authors] = nil
            form.splitSource = nil
            form.splitIndex = -1
            return
        }
        form.buffer = offers[next].title
        form.values[.authors] = offers[next].author
        form.splitSource = source
        form.splitIndex = next
    }

    /// Every field checked; the first broken one is reopened inline with its rule, the rest are kept.
    private mutating func editorClosed(_ text: String?) -> [ReviewEffect] {
        guard let text else {
            message = "The editor did not finish (set $VISUAL or $EDITOR); edit inline instead."
            return []
        }
        var form = EditForm()
        form.values = YAMLForm.parse(text)
        for field in EditForm.Field.allCases {
            let value = form.values[field] ?? ""
            if let problem = Self.check(field, value) {
                form.field = field
                form.buffer = value
                form.error = problem
                mode = .editing(form)
                return []
            }
        }
        return decide(.edit(Self.edit(from: form.values)))
    }

    /// The field's rule, as the message shown under the prompt; nil when the value is fine.
    static func check(_ field: EditForm.Field, _ value: String) -> String? {
        switch field {
        case .title:
            return Rules.title(value)?.description
        case .authors:
            let names = value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            return Rules.authors(names.filter { !$0.isEmpty }, required: true)?.description
                ?? names.lazy.compactMap(Rules.authorName).first?.description
        case .isbn:
            return value.isEmpty ? nil : Rules.isbn(value)?.description
        case .year:
            guard !value.isEmpty else { return nil }
            guard let y = Int(value), y > 0, y <= 2100 else { return "year: must be a year like 1965 (or empty)" }
            _ = y
            return nil
        }
    }

    static func edit(from values: [EditForm.Field: String]) -> WorkEdit {
        WorkEdit(title: values[.title],
                 authors: values[.authors].map { $0.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } },
                 isbn: values[.isbn].flatMap { $0.isEmpty ? nil : $0 },
                 firstPublicationYear: values[.year].flatMap { Int($0) })
    }
}
