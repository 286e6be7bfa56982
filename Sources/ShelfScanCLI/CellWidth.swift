/// How many terminal columns text takes. A terminal draws East Asian wide letters and emoji across two
/// columns and combining marks in none, so counting `Character`s puts the cursor and the clipping in the
/// wrong place as soon as a title is Japanese or carries a decomposed accent.
enum CellWidth {
    /// Columns one grapheme takes: 0 (a lone combining mark or zero-width joiner), 1 or 2.
    static func of(_ c: Character) -> Int {
        guard let first = c.unicodeScalars.first else { return 0 }
        if c.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }   // emoji presentation selector
        return of(first)
    }

    static func of(_ s: Unicode.Scalar) -> Int {
        let v = s.value
        if v == 0 || v == 0x200B || v == 0x200D || (0xFE00...0xFE0F).contains(v) { return 0 }
        switch s.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if s.properties.isEmojiPresentation { return 2 }
        return wideRanges.contains { $0.contains(v) } ? 2 : 1
    }

    /// Unicode's East Asian Width W and F blocks (UAX #11), the ranges terminals draw double.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60,
        0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]

    /// Columns of plain text (no escape sequences).
    static func of(_ s: some StringProtocol) -> Int { s.reduce(0) { $0 + of($1) } }

    /// The longest prefix of `s` that fits in `width` columns.
    static func prefix(_ s: some StringProtocol, fitting width: Int) -> String {
        var used = 0, out = ""
        for c in s {
            let w = of(c)
            if used + w > width { break }
            used += w
            out.append(c)
        }
        return out
    }

    /// The longest suffix of `s` that fits in `width` columns.
    static func suffix(_ s: some StringProtocol, fitting width: Int) -> String {
        var used = 0, out: [Character] = []
        for c in s.reversed() {
            let w = of(c)
            if used + w > width { break }
            used += w
            out.append(c)
        }
        return String(out.reversed())
    }
}
