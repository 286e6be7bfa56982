import BookModel
import Foundation
import Library

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

/// Visible width of a string, ignoring ANSI escape sequences (CSI and kitty's APC).
func visibleWidth(_ s: String) -> Int {
    var n = 0
    var it = s.unicodeScalars.makeIterator()
    while let c = it.next() {
        if c == "\u{1B}" {
            guard let k = it.next() else { break }
            if k == "[" { while let d = it.next(), !(0x40...0x7E).contains(d.value) {} }
            else if k == "_" { while let d = it.next() { if d == "\u{1B}" { _ = it.next(); break } } }
            continue
        }
        n += 1
    }
    return n
}

/// Cuts plain text to `width` columns with an ellipsis.
func clip(_ s: String, _ width: Int) -> String {
    guard width > 0 else { return "" }
    return s.count <= width ? s : String(s.prefix(max(0, width - 1))) + "…"
}

/// Keeps the end of a path, which is the informative part.
func clipPath(_ s: String, _ width: Int) -> String {
    s.count <= width ? s : "…" + String(s.suffix(max(0, width - 1)))
}

/// Turns a session's state into the lines of one screen (80x24 and up).
struct ReviewScreen {
    var columns: Int
    var rows: Int
    var style: Style
    /// The crop, already rendered for this item (so typing in the edit form does not redraw it from pixels).
    var crop: [String]

    static func keys(catalog: Bool) -> String {
        "[V]erify [E]dit [S]kip [R]eject [M]erge " + (catalog ? "[C]atalog " : "") + "[U]ndo [Q]uit [?]help"
    }

    func lines(_ s: ReviewSession) -> [String] {
        let columns = max(columns, 40), rows = max(rows, 12)
        var out: [String] = []
        out.append(style.inverse(pad(header(s), columns)))
        var body: [String]
        switch s.mode {
        case .help: body = help()
        // Finished with the last item still on screen shows that item; with none, the same as empty.
        case _ where s.mode == .empty || (s.mode == .finished && s.item == nil):
            body = ["", style.bold("Nothing waiting for review."), "",
                    "Decided this session: \(s.decided).", "Press U to undo the last decision, Q to quit."]
        default: body = info(s, width: columns - cropWidth - 2)
        }
        let bodyRows = rows - 4
        for r in 0..<bodyRows {
            let left = r < crop.count && s.item != nil && s.mode != .help ? crop[r] : ""
            let leftPad = String(repeating: " ", count: max(0, cropWidth - visibleWidth(left)))
            let right = r < body.count ? body[r] : ""
            out.append(cropWidth > 0 ? left + leftPad + "  " + right : right)
        }
        out.append(style.yellow(clip(s.message ?? "", columns)))
        out.append(prompt(s, columns))
        out.append(footer(s, columns))
        return out
    }

    var cropWidth: Int { crop.isEmpty ? 0 : crop.map(visibleWidth).max() ?? 0 }

    private func pad(_ s: String, _ width: Int) -> String {
        let c = clip(s, width)
        return c + String(repeating: " ", count: max(0, width - c.count))
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
            let value: String
            if field == form.field { value = style.inverse(form.buffer + " ") }
            else { value = form.values[field] ?? s.currentValue(field) }
            lines.append((field == form.field ? style.bold(name) : style.dim(name)) + clip(value, width - 9))
        }
        if let error = form.error { lines += ["", style.red(clip(error, width))] }
        lines += ["", style.dim("Authors are separated by ;  ISBN and year may stay empty.")]
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

    func prompt(_ s: ReviewSession, _ columns: Int) -> String {
        switch s.mode {
        case let .editing(form): return clip("\(fieldName(form.field)): \(form.buffer)", columns)
        case .pickingMerge: return "Merge into 1-\(s.candidates.count)?"
        case .pickingCatalog: return "Take catalogue entry 1-\(s.catalog.count)?"
        default: return ""
        }
    }

    func footer(_ s: ReviewSession, _ columns: Int) -> String {
        switch s.mode {
        case .editing: return style.bold(clip("Enter accepts · Esc cancels · Ctrl-E edits all fields in $EDITOR", columns))
        case .pickingMerge: return style.bold(clip("1-\(s.candidates.count) merges into that book · any other key cancels", columns))
        case .pickingCatalog: return style.bold(clip("1-\(s.catalog.count) takes that entry · any other key cancels", columns))
        case .help: return style.bold("Any key goes back")
        default: break
        }
        let enter: String
        switch s.defaultAction {
        case .verify: enter = "Verify"
        case .edit: enter = "Edit"
        case let .merge(n): enter = "Merge into \(n)"
        }
        let text = s.item == nil ? "[U]ndo [Q]uit [?]help" : "\(Self.keys(catalog: s.hasCatalog)) · Enter=\(enter)"
        if visibleWidth(text) > columns { return style.bold(clip(text.replacingOccurrences(of: "help", with: ""), columns)) }
        return style.bold(clip(text, columns))
    }

    func help() -> [String] {
        [style.bold("Keys"), "",
         "  V  verify: the reading is right; the book joins your library",
         "  E  edit: type the title, authors (separated by ;), ISBN, year;",
         "     in the form, Ctrl-E opens all fields in $VISUAL/$EDITOR as YAML",
         "  S  skip: decide later; it comes back at the end of the queue",
         "  R  reject: not a book, or not yours; removed from the queue",
         "  M  merge into a book already in your library (then 1-5)",
         "  C  take a catalogue entry (with --catalog books.csv; then 1-3)",
         "  U  undo the last decision (as many times as you like)",
         "  Q  quit; Ctrl-C too. Every decision is saved as you make it,",
         "     and the next session starts where this one stopped.",
         "  Enter takes the default shown at the bottom right.",
         "", "Press any key to go back."]
    }
}
