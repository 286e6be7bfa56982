#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The terminal settings to put back if a signal ends the process while in raw mode. Written only on the
/// main thread before the handlers are installed, read only by them.
nonisolated(unsafe) private var termiosToRestore: termios?

private func restoreTerminalAndExit(_ signal: Int32) {
    if var t = termiosToRestore { tcsetattr(STDIN_FILENO, TCSAFLUSH, &t) }
    let reset = "\u{1B}[?25h\u{1B}[?1049l"
    _ = reset.withCString { Glibc.write(STDOUT_FILENO, $0, strlen($0)) }
    _exit(128 + signal)
}

/// The controlling terminal: raw key input (termios), its size, and output. Falls back to plain byte reads
/// when standard input is not a terminal (scripts, pipes), where a newline is Enter.
final class Terminal {
    let isInteractive: Bool
    private var saved = termios()
    private var raw = false

    init() {
        isInteractive = isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
    }

    /// Keys without Enter: no canonical mode, no echo, and Ctrl-C arrives as a byte (the session then quits
    /// cleanly) instead of killing the process mid-draw.
    func enterRawMode() {
        guard isInteractive, !raw, tcgetattr(STDIN_FILENO, &saved) == 0 else { return }
        var t = saved
        t.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        t.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &t.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        if tcsetattr(STDIN_FILENO, TCSAFLUSH, &t) == 0 { raw = true }
        // A closed window (SIGHUP) or kill (SIGTERM) must not leave the shell in raw mode. Decisions are
        // committed as they are made, so exiting here loses nothing.
        termiosToRestore = saved
        for s in [SIGTERM, SIGHUP, SIGQUIT] { signal(s) { restoreTerminalAndExit($0) } }
        write("\u{1B}[?1049h\u{1B}[?25l")   // alternate screen, hide cursor
    }

    func restore() {
        guard raw else { return }
        write("\u{1B}[?25h\u{1B}[?1049l")
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
        raw = false
    }

    deinit { restore() }

    /// Columns and rows; 80x24 when unknown.
    var size: (columns: Int, rows: Int) {
        var w = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &w) == 0, w.ws_col > 0, w.ws_row > 0 { return (Int(w.ws_col), Int(w.ws_row)) }
        let env = ProcessInfo.processInfo.environment
        return (Int(env["COLUMNS"] ?? "") ?? 80, Int(env["LINES"] ?? "") ?? 24)
    }

    func write(_ text: String) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if n <= 0 { if errno == EINTR { continue } else { return } }
                offset += n
            }
        }
    }

    /// Next key, or nil at end of input. Escape sequences (arrows) are read whole and dropped.
    func readKey() -> Key? {
        if !raw { return readLine(strippingNewline: true).map { .line($0.trimmingCharacters(in: .whitespaces)) } }
        while true {
            guard let b = readByte() else { return nil }
            switch b {
            case 3, 4: return .interrupt
            case 5: return .openEditor
            case 13, 10: return .enter
            case 127, 8: return .backspace
            case 27:
                // A lone Esc, or the start of a sequence like ESC [ A (dropped).
                if raw, let next = readByte(timeoutMilliseconds: 30) {
                    if next == UInt8(ascii: "[") || next == UInt8(ascii: "O") {
                        while let c = readByte(timeoutMilliseconds: 30), !(64...126).contains(c) {}
                    }
                    continue
                }
                return .escape
            case 0..<32: continue
            default:
                // UTF-8: the lead byte says how many continuation bytes follow.
                let extra = b >= 0xF0 ? 3 : b >= 0xE0 ? 2 : b >= 0xC0 ? 1 : 0
                var bytes = [b]
                for _ in 0..<extra { if let c = readByte() { bytes.append(c) } }
                if let s = String(validating: bytes, as: UTF8.self), let ch = s.first { return .char(ch) }
            }
        }
    }

    private func readByte(timeoutMilliseconds: Int32? = nil) -> UInt8? {
        if let timeoutMilliseconds {
            var fds = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            guard poll(&fds, 1, timeoutMilliseconds) > 0 else { return nil }
        }
        var byte: UInt8 = 0
        while true {
            let n = read(STDIN_FILENO, &byte, 1)
            if n == 1 { return byte }
            if n < 0 && errno == EINTR { continue }
            return nil
        }
    }
}
