import BookModel
import Foundation
import LibraryCore

/// ANSI styling that disappears under NO_COLOR (https://no-color.org) or when output is not a terminal.
struct Style {
    let color: Bool
    func wrap(_ text: String, _ code: String) -> String { color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
    func bold(_ t: String) -> String { wrap(t, "1") }
    func dim(_ t: String) -> String { wrap(t, "2") }
    func inverse(_ t: String) -> String { wrap(t, "7") }
    func red(_ t: String) -> String { wrap(t, "31") }
    func green(_ t: String) -> String { wrap(t, "32") }
    func yellow(_ t: String) -> String { wrap(t, "33") }
    func cyan(_ t: String) -> String { wrap(t, "36") }
}

/// Visible width of a string in terminal columns, ignoring escape sequences (CSI, and the APC, DCS and OSC
/// strings that carry kitty, sixel and iTerm2 images).
func visibleWidth(_ s: String) -> Int {
    var n = 0
    var it = s.unicodeScalars.makeIterator()
    while let c = it.next() {
        if c == "\u{1B}" {
            guard let k = it.next() else { break }
            if k == "[" { while let d = it.next(), !(0x40...0x7E).contains(d.value) {} }
            else if k == "_" || k == "P" || k == "]" {
                // Ends at ST (Esc \\) or, for OSC, BEL.
                while let d = it.next() {
                    if d == "\u{07}" && k == "]" { break }
                    if d == "\u{1B}" { _ = it.next(); break }
                }
            }
            continue
        }
        n += CellWidth.of(c)
    }
    return n
}

/// Cuts plain text to `width` columns with an ellipsis.
func clip(_ s: String, _ width: Int) -> String {
    guard width > 0 else { return "" }
    return CellWidth.of(s) <= width ? s : CellWidth.prefix(s, fitting: width - 1) + "…"
}

/// Keeps the end of a path, which is the informative part.
func clipPath(_ s: String, _ width: Int) -> String {
    CellWidth.of(s) <= width ? s : "…" + CellWidth.suffix(s, fitting: max(0, width - 1))
}

/// Turns a session's state into the lines of one screen (80x24 and up): the header, the spine turned to
/// be read across the width, the strip of shelf around it, what was read, and the keys.
struct ReviewScreen {
    var columns: Int
    var rows: Int
    var style: Style
    /// The spine, already rendered for this item (so typing in the edit form does not redraw it from pixels).
    var spine: Picture = .empty
    /// The shelf row around the spine, with the box outlined.
    var context: Picture = .empty
    /// A line shown where the context strip would be when there is none (the photo has moved, say).
    var contextNote: String?

    init(columns: Int, rows: Int, style: Style, spine: Picture = .empty, context: Picture = .empty, contextNote: String? = nil) {
        self.columns = columns; self.rows = rows; self.style = style
        self.spine = spine; self.context = context; self.contextNote = contextNote
    }

    /// Rows given to the spine and to the shelf strip: a third of the screen in all, the rest for text.
    static func pictureRows(rows: Int) -> (spine: Int, context: Int) {
        rows >= 34 ? (6, 8) : rows >= 28 ? (4, 6) : (3, 4)
    }

    /// An image to draw over the text: its payload goes out with the cursor at `row`, `column` (0-based).
    struct Overlay: Equatable { var row: Int; var column: Int; var rows: Int; var payload: String }

    static func keys(catalog: Bool) -> String {
        "[V]erify [E]dit [S]kip [R]eject [M]erge " + (catalog ? "[C]atalog " : "") + "[/]search [B]ulk [U]ndo [Q]uit [?]help"
    }

    func lines(_ s: ReviewSession) -> [String] { render(s).lines }

    func render(_ s: ReviewSession) -> (lines: [String], overlays: [Overlay]) {
        let columns = max(columns, 40), rows = max(rows, 12)
        var out: [String] = []
        var overlays: [Overlay] = []
        out.append(style.inverse(pad(header(s), columns)))
        let showPictures = s.item != nil && s.mode != .help && s.mode != .empty && !(s.mode == .finished && s.item == nil)
        if showPictures {
            let (spineRows, contextRows) = Self.pictureRows(rows: rows)
            for (picture, height, note) in [(spine, spineRows, nil as String?), (context, contextRows, contextNote)] {
                let top = out.count
                for r in 0..<height {
                    if r < picture.lines.count { out.append(picture.lines[r]) }
                    else if r == 0 && picture.lines.isEmpty, let note { out.append(style.dim(clip(note, columns))) }
                    else { out.append("") }
                }
                if let overlay = picture.overlay { overlays.append(Overlay(row: top, column: 0, rows: height, payload: overlay)) }
            }
        }
        var body: [String]
        switch s.mode {
        case .help: body = help()
        // Finished with the last item still on screen shows that item; with none, the same as empty.
        case _ where s.mode == .empty || (s.mode == .finished && s.item == nil):
            body = ["", style.bold("Nothing waiting for review."), "",
                    "Decided this session: \(s.decided).", "Press U to undo the last decision, Q to quit."]
        case .bulk: body = bulk(s, width: columns)
        case .searching, .pickingSearch: body = search(s, width: columns)
        default: body = info(s, width: columns)
        }
        let bodyRows = rows - 3 - out.count
        for r in 0..<max(0, bodyRows) { out.append(r < body.count ? body[r] : "") }
        out.append(style.yellow(clip(s.message ?? "", columns)))
        out.append(prompt(s, columns))
        out.append(footer(s, columns))
        return (out, overlays)
    }

    private func pad(_ s: String, _ width: Int) -> String {
        let c = clip(s, width)
        return c + String(repeating: " ", count: max(0, width - CellWidth.of(c)))
    }

    func header(_ s: ReviewSession) -> String {
        guard let item = s.item else { return " ShelfScan review · 0 pending" }
        var parts = [" ShelfScan review", "\(item.queuePosition) of \(item.pendingCount) pending"]
        if let spine = item.work.spine {
            parts.append("photo \(item.photoPosition) of \(item.photoCount), shelf \(spine.row + 1), spine \(spine.position + 1)")
        }
        if s.decided > 0 { parts.append("\(s.decided) done") }
        return parts.joined(separator: " · ")
    }

    private func confidence(_ value: Double?, threshold: Double) -> String {
        guard let value else { return style.red("not read") }
        let text = "\(Int((value * 100).rounded()))%"
        return value >= threshold ? style.green(text) : value >= threshold / 2 ? style.yellow(text) : style.red(text)
    }

    func info(_ s: ReviewSession, width: Int) -> [String] {
        guard let item = s.item else { return [] }
        let w = item.work
        let label = { (name: String) in self.style.dim(name.padding(toLength: 9, withPad: " ", startingAt: 0)) }
        var lines: [String] = []
        if case let .editing(form) = s.mode { return editForm(s, form, width: width) }
        lines.append(label("Title") + style.bold(clip(w.hasUnreadTitle ? "(spine not read)" : w.title, width - 9)))
        lines.append(label("Authors") + clip(w.authors.isEmpty ? "—" : w.authors.map(\.name).joined(separator: "; "), width - 9))
        let spine = w.spine
        var reading = confidence(spine?.readingConfidence, threshold: s.confidenceThreshold)
        if let reader = spine?.reader { reading += style.dim(" · \(reader)\(spine?.model.map { " \($0)" } ?? "")\(spine?.promptVersion.map { " · prompt \($0)" } ?? "")") }
        lines.append(label("Reading") + reading)
        if let raw = spine?.rawText, !raw.isEmpty {
            lines.append(label("Raw") + style.dim(clip("“" + raw.replacingOccurrences(of: "\n", with: " / ") + "”", width - 9)))
        }
        if let error = spine?.readError { lines.append(label("Problem") + style.red(clip(error, width - 9))) }
        if let spine { lines.append(label("Detected") + confidence(spine.detectionConfidence, threshold: 0.5) + (spine.lying ? " · lying flat" : "")) }
        if let isbn = w.editions.first?.primaryISBN { lines.append(label("ISBN") + isbn) }
        if let year = w.firstPublicationYear { lines.append(label("Year") + String(year)) }
        lines.append(label("Crop") + clipPath(item.cropURL?.path ?? "(no crop file)", width - 9))
        if let photo = w.originalImagePath { lines.append(label("Photo") + style.dim(clipPath(photo, width - 9))) }
        lines.append("")
        if s.candidates.isEmpty {
            lines.append(style.dim("No likely duplicates in your library."))
        } else {
            lines.append(style.bold("Already in your library?"))
            for (i, c) in s.candidates.enumerated() {
                let who = c.authors.isEmpty ? "" : " — " + c.authors.joined(separator: "; ")
                let why = " (\(c.reason))"
                let text = clip("\(i + 1). \(c.title)\(who)", width - why.count - 1)
                lines.append((c.reason.similarity >= DuplicateRule.fuzzyThreshold ? style.cyan(text) : text) + style.dim(why))
            }
        }
        if !s.catalog.isEmpty {
            lines.append("")
            lines.append(style.bold("In your catalogue (C takes one):"))
            for (i, c) in s.catalog.enumerated() {
                let who = c.authors.isEmpty ? "" : " — " + c.authors.joined(separator: "; ")
                let score = " (\(Int((c.score * 100).rounded()))%)"
                lines.append(clip("\(i + 1). \(c.title)\(who)", width - score.count - 1) + style.dim(score))
            }
        }
        return lines
    }

    private func editForm(_ s: ReviewSession, _ form: ReviewSession.EditForm, width: Int) -> [String] {
        var lines = [style.bold("Edit (Enter accepts a field, Esc cancels)"), ""]
        for field in ReviewSession.EditForm.Field.allCases {
            let name = fieldName(field).padding(toLength: 9, withPad: " ", startingAt: 0)
            let value = field == form.field ? form.editor.render(width: width - 9, style: style)
                : clip(form.values[field] ?? s.currentValue(field), width - 9)
            lines.append((field == form.field ? style.bold(name) : style.dim(name)) + value)
        }
        if let error = form.error { lines += ["", style.red(clip(error, width))] }
        let offers = s.splitOffers(form)
        if !offers.isEmpty {
            let next = offers[(form.splitIndex + 1) % offers.count]
            let hint = form.splitIndex + 1 >= offers.count ? "Tab puts the line back as read"
                : "Tab splits: author “\(next.author)”, title “\(next.title)”"
            lines += ["", style.cyan(clip(hint, width))]
        }
        lines += ["", style.dim(clip("Authors are separated by ;  ISBN and year may stay empty.", width)),
                  style.dim(clip("Ctrl-U deletes to the start, Ctrl-X clears the field to type it fresh.", width))]
        return lines
    }

    private func fieldName(_ f: ReviewSession.EditForm.Field) -> String {
        switch f {
        case .title: "Title"
        case .authors: "Authors"
        case .isbn: "ISBN"
        case .year: "Year"
        }
    }

    private func bulk(_ s: ReviewSession, width: Int) -> [String] {
        let bar = "\(Int((s.bulkThreshold * 100).rounded()))%"
        let shelf = s.work?.spine?.row
        let photo = s.bulkVerifiable(shelf: nil), row = s.bulkVerifiable(shelf: shelf)
        var lines = [style.bold("Bulk decisions · \(s.group.count) pending on this photo"), "",
                     "  P  verify the \(photo.count) read at \(bar) or better on this photo",
                     "  S  verify the \(row.count) read at \(bar) or better on shelf \((shelf ?? 0) + 1)",
                     "  R  reject the \(s.bulkUnread.count) boxes where nothing was read (mostly not books)",
                     "  +/-  raise or lower the bar (now \(bar))    Esc  back", ""]
        if !photo.isEmpty {
            lines.append(style.dim(clip("P verifies: " + photo.map(\.title).joined(separator: "; "), width)))
        }
        return lines
    }

    private func search(_ s: ReviewSession, width: Int) -> [String] {
        let places = ["your library"] + (s.hasCatalog ? ["catalogue"] : []) + (s.remoteSearch.map { [$0] } ?? [])
        let listed = places.count == 1 ? places[0] : places.dropLast().joined(separator: ", ") + " and " + places.last!
        var lines = [style.bold("Search \(listed) for this spine"), ""]
        if case let .searching(editor) = s.mode {
            lines.append("/ " + editor.render(width: width - 2, style: style))
        } else {
            lines.append("/ " + clip(s.searchText, width - 2))
        }
        lines.append("")
        if s.searchHits.isEmpty {
            lines.append(style.dim(CellWidth.of(s.searchText) < 2 ? "Type a few words of the title or the author." : "Nothing found."))
        }
        for (i, hit) in s.searchHits.prefix(9).enumerated() {
            let who = hit.authors.isEmpty ? "" : " — " + hit.authors.joined(separator: "; ")
            let source = " (\(hit.source == "library" ? "in your library: merges" : hit.source))"
            lines.append(clip("\(i + 1). \(hit.title)\(who)", width - CellWidth.of(source) - 1) + style.dim(source))
        }
        return lines
    }

    func prompt(_ s: ReviewSession, _ columns: Int) -> String {
        switch s.mode {
        case let .splitting(at):
            return clip("Split at \(Int((at * 100).rounded()))% of the box's width, from its left in the photo", columns)
        case .pickingSearch: return "Take which? 1-\(min(9, s.searchHits.count))"
        case let .editing(form): return clip("\(fieldName(form.field)): \(form.buffer)", columns)
        case .pickingMerge: return "Merge into 1-\(s.candidates.count)?"
        case .pickingCatalog: return "Take catalogue entry 1-\(s.catalog.count)?"
        default: return ""
        }
    }

    func footer(_ s: ReviewSession, _ columns: Int) -> String {
        switch s.mode {
        case .editing: return style.bold(clip("Enter accepts · Esc cancels · ↑ back · Ctrl-X clears · Ctrl-O all fields in $EDITOR", columns))
        case .pickingMerge: return style.bold(clip("1-\(s.candidates.count) merges into that book · any other key cancels", columns))
        case .pickingCatalog: return style.bold(clip("1-\(s.catalog.count) takes that entry · any other key cancels", columns))
        case .help: return style.bold("Any key goes back")
        case .bulk: return style.bold(clip("P photo · S shelf · R reject unread · +/- bar · Esc back", columns))
        case .splitting: return style.bold(clip("←/→ move the cut · Enter splits · Esc cancels · U undoes after", columns))
        case .searching:
            let enter = s.remoteSearch.map { "Enter asks \($0) too, then 1-9 takes a book" } ?? "Enter then 1-9 takes a book"
            return style.bold(clip("Type words · \(enter) · Esc back", columns))
        case .pickingSearch: return style.bold(clip("1-\(min(9, s.searchHits.count)) takes that book · any other key types again", columns))
        default: break
        }
        let enter: String
        switch s.defaultAction {
        case .verify: enter = "Verify"
        case .edit: enter = "Edit"
        case let .merge(n): enter = "Merge into \(n)"
        }
        let text = s.item == nil ? "[U]ndo [Q]uit [?]help" : "\(Self.keys(catalog: s.hasCatalog)) · Enter=\(enter)"
        if visibleWidth(text) > columns {
            // The keys used on almost every spine; ? lists the rest.
            return style.bold(clip("[V]erify [E]dit [S]kip [R]eject [M]erge [U]ndo [?]more · Enter=\(enter)", columns))
        }
        return style.bold(clip(text, columns))
    }

    func help() -> [String] {
        [style.bold("Keys"), "",
         "  V  verify: the reading is right; the book joins your library",
         "  E  edit: type the title, authors (separated by ;), ISBN, year;",
         "     in a field, readline's keys: Ctrl-A/E start/end, Ctrl-U/K delete to",
         "     start/end, Ctrl-W/Alt-Backspace a word, Alt-B/F word moves, Ctrl-Y puts",
         "     back; Ctrl-X clears the field; Tab splits an author from the title;",
         "     Ctrl-O opens all fields in $VISUAL/$EDITOR",
         "  S  skip: decide later; it comes back at the end of the queue",
         "  R  reject: not a book, or not yours; removed from the queue",
         "  M  merge into a book already in your library (then 1-5)",
         "  C  take a catalogue entry (with --catalog books.csv; then 1-3)",
         "  /  search your library and catalogue by words (then 1-9 takes one)",
         "  B  bulk: verify this photo's or shelf's sure readings, reject unread boxes",
         "  |  split a box that holds two books   J  join this box with the next",
         "  T  turn the spine picture half round  O/P  open the crop/photo in a viewer",
         "  U  undo the last decision (as many times as you like)",
         "  Q  quit; Ctrl-C too. Every decision is saved as you make it,",
         "     and the next session starts where this one stopped.",
         "  Enter takes the default shown at the bottom right.",
         "", "Press any key to go back."]
    }
}
