/// Turns the bytes a terminal sends into keys. Kept apart from `Terminal` (which only reads bytes) so the
/// escape sequences of xterm, tmux, the Linux console and rxvt are checked by tests without a terminal.
///
/// A lone Esc and the start of a sequence both begin with byte 27; the caller says whether more bytes
/// followed quickly (`next` returns nil after a short wait), which is how every terminal program tells them apart.
enum KeyDecoder {
    /// - Parameters:
    ///   - first: the byte just read.
    ///   - next: the following byte, or nil when none arrives within a few milliseconds.
    static func decode(_ first: UInt8, next: () -> UInt8?) -> Key? {
        switch first {
        case 3: return .interrupt
        case 9: return .tab
        case 13, 10: return .enter
        case 127, 8: return .backspace
        case 15: return .openEditor                       // Ctrl-O
        case 27: return escape(next: next)
        case 1...26: return .ctrl(Character(Unicode.Scalar(first + 96)))
        case 0..<32: return nil
        default:
            // UTF-8: the lead byte says how many continuation bytes follow.
            let extra = first >= 0xF0 ? 3 : first >= 0xE0 ? 2 : first >= 0xC0 ? 1 : 0
            var bytes = [first]
            for _ in 0..<extra { if let c = next() { bytes.append(c) } }
            guard let s = String(validating: bytes, as: UTF8.self), let ch = s.first else { return nil }
            return .char(ch)
        }
    }

    private static func escape(next: () -> UInt8?) -> Key? {
        guard let b = next() else { return .escape }
        switch b {
        case UInt8(ascii: "["): return csi(next: next)
        case UInt8(ascii: "O"):
            // SS3: arrows and Home/End in application cursor mode (tmux and xterm send these too).
            guard let c = next() else { return .alt("O") }
            return finalKey(c, modifier: 1) ?? nil
        case 27: return .escape
        case 127, 8: return .alt("\u{7F}")
        default:
            guard b >= 32, b < 127 else { return nil }
            return .alt(Character(Unicode.Scalar(b)).lowercased().first!)
        }
    }

    /// CSI: parameters, then a final byte. `ESC [ 1 ; 5 C` is Ctrl-Right, `ESC [ 3 ~` Delete.
    private static func csi(next: () -> UInt8?) -> Key? {
        var params: [UInt8] = []
        while let c = next() {
            if (0x40...0x7E).contains(c) {
                let numbers = String(decoding: params, as: UTF8.self).split(separator: ";").map { Int($0) ?? 0 }
                if c == UInt8(ascii: "~") {
                    switch numbers.first ?? 0 {
                    case 1, 7: return .home
                    case 4, 8: return .end
                    case 3: return .delete
                    case 5: return .pageUp
                    case 6: return .pageDown
                    default: return nil
                    }
                }
                return finalKey(c, modifier: numbers.count > 1 ? numbers[1] : 1)
            }
            params.append(c)
            if params.count > 16 { return nil }
        }
        return nil
    }

    private static func finalKey(_ c: UInt8, modifier: Int) -> Key? {
        // xterm's modifier parameter: 1 + (Shift 1, Alt 2, Ctrl 4).
        let ctrlOrAlt = modifier > 1 && (modifier - 1) & 6 != 0
        switch c {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return ctrlOrAlt ? .ctrlRight : .right
        case UInt8(ascii: "D"): return ctrlOrAlt ? .ctrlLeft : .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "Z"): return nil      // Shift-Tab
        default: return nil
        }
    }
}
