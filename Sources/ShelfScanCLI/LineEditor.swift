/// One line of text being typed, with the keys people's fingers already know from bash and readline.
///
/// The text is held as graphemes (`Character`), so the cursor steps over "é" written as e + U+0301, a
/// flag or a CJK letter in one press, and Backspace never leaves half a letter behind. Killed text goes
/// to a one-entry kill ring that Ctrl-Y yanks back, as in readline.
struct LineEditor: Equatable, Sendable {
    private(set) var characters: [Character]
    /// Between 0 and `characters.count`: the cursor sits before `characters[cursor]`.
    private(set) var cursor: Int
    private(set) var killRing = ""

    init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    var text: String { String(characters) }

    /// Applies one key; false when the key is not an editing key (Enter, Esc, Tab… are the form's).
    @discardableResult
    mutating func handle(_ key: Key) -> Bool {
        switch key {
        case let .char(c): insert(String(c))
        case .backspace: if cursor > 0 { characters.remove(at: cursor - 1); cursor -= 1 }
        case .delete, .ctrl("d"): if cursor < characters.count { characters.remove(at: cursor) }
        case .left, .ctrl("b"): cursor = max(0, cursor - 1)
        case .right, .ctrl("f"): cursor = min(characters.count, cursor + 1)
        case .home, .ctrl("a"): cursor = 0
        case .end, .ctrl("e"): cursor = characters.count
        case .ctrl("u"): kill(0..<cursor)
        case .ctrl("k"): kill(cursor..<characters.count)
        // Ctrl-W stops at whitespace (readline's unix-word-rubout); Alt-Backspace at punctuation too.
        case .ctrl("w"): kill(wordStart(before: cursor, isWord: { !$0.isWhitespace })..<cursor)
        case .alt("\u{7F}"), .alt("\u{08}"): kill(wordStart(before: cursor, isWord: Self.isWordCharacter)..<cursor)
        case .alt("b"), .ctrlLeft: cursor = wordStart(before: cursor, isWord: Self.isWordCharacter)
        case .alt("f"), .ctrlRight: cursor = wordEnd(after: cursor)
        case .alt("d"): kill(cursor..<wordEnd(after: cursor))
        case .ctrl("y"): insert(killRing)
        case .ctrl("t"): transpose()
        // Drop what the reader made of the spine and type it fresh, wherever the cursor is.
        case .ctrl("x"): characters = []; cursor = 0
        case let .line(text): characters = Array(text); cursor = characters.count
        default: return false
        }
        return true
    }

    mutating func insert(_ text: String) {
        let new = Array(text)
        characters.insert(contentsOf: new, at: cursor)
        cursor += new.count
        // A combining mark typed after a letter joins it into one grapheme: re-segment so the cursor
        // stays on a grapheme boundary.
        let joined = String(characters)
        if joined.count != characters.count {
            let before = String(characters[..<cursor]).count
            characters = Array(joined)
            cursor = before
        }
    }

    private mutating func kill(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        killRing = String(characters[range])
        characters.removeSubrange(range)
        cursor = range.lowerBound
    }

    private mutating func transpose() {
        guard characters.count >= 2, cursor > 0 else { return }
        let i = cursor == characters.count ? cursor - 1 : cursor
        characters.swapAt(i - 1, i)
        cursor = i + 1
    }

    static func isWordCharacter(_ c: Character) -> Bool { c.isLetter || c.isNumber }

    private func wordStart(before index: Int, isWord: (Character) -> Bool) -> Int {
        var i = index
        while i > 0, !isWord(characters[i - 1]) { i -= 1 }
        while i > 0, isWord(characters[i - 1]) { i -= 1 }
        return i
    }

    private func wordEnd(after index: Int) -> Int {
        var i = index
        while i < characters.count, !Self.isWordCharacter(characters[i]) { i += 1 }
        while i < characters.count, Self.isWordCharacter(characters[i]) { i += 1 }
        return i
    }

    /// The line as it fits in `width` columns, scrolled so the cursor shows, the cursor cell in inverse video.
    /// Widths count terminal columns (a CJK letter takes two).
    func render(width: Int, style: Style) -> String {
        guard width > 1 else { return "" }
        let before = String(characters[..<cursor])
        let atCursor = cursor < characters.count ? String(characters[cursor]) : " "
        let after = cursor + 1 < characters.count ? String(characters[(cursor + 1)...]) : ""
        let cursorWidth = CellWidth.of(atCursor)
        // Keep as much as fits before the cursor (the part being typed), then fill with what follows.
        let room = max(0, width - cursorWidth)
        var shownBefore = CellWidth.suffix(before, fitting: room)
        if shownBefore.count < before.count, !shownBefore.isEmpty { shownBefore = "…" + CellWidth.suffix(before, fitting: room - 1) }
        let left = room - CellWidth.of(shownBefore)
        var shownAfter = CellWidth.prefix(after, fitting: left)
        if shownAfter.count < after.count, left > 0 { shownAfter = CellWidth.prefix(after, fitting: left - 1) + "…" }
        // Without colour the cursor is a visible bar, so a screen reader or a log still shows where it is.
        let cursorCell = style.color ? style.inverse(atCursor) : "▏" + (cursor < characters.count ? atCursor : "")
        return shownBefore + cursorCell + shownAfter
    }
}
