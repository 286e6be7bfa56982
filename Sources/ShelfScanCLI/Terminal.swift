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

    /// The pixel size of one cell, from the kernel's window size when the terminal reports it (xterm, foot,
    /// WezTerm do), else the common 10x20.
    var cellPixels: (width: Int, height: Int) {
        var w = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &w) == 0, w.ws_col > 0, w.ws_row > 0, w.ws_xpixel > 0, w.ws_ypixel > 0 {
            return (max(1, Int(w.ws_xpixel) / Int(w.ws_col)), max(1, Int(w.ws_ypixel) / Int(w.ws_row)))
        }
        return (10, 20)
    }

    /// Asks the terminal whether it draws sixel graphics: XTSMGRAPHICS (`CSI ? 2 ; 1 ; 0 S`, status 0 when
    /// sixel works) and Primary Device Attributes (`CSI c`, attribute 4 is sixel). Every terminal answers
    /// DA1, so reading up to its final `c` never waits for an answer that will not come; a terminal that
    /// answers nothing at all costs `timeoutMilliseconds` once. Call in raw mode.
    func probeSixel(timeoutMilliseconds: Int32 = 250) -> Bool {
        guard raw else { return false }
        write("\u{1B}[?2;1;0S\u{1B}[c")
        var reply: [UInt8] = []
        while let b = readByte(timeoutMilliseconds: timeoutMilliseconds) {
            reply.append(b)
            if b == UInt8(ascii: "c"), reply.contains(UInt8(ascii: "?")) { break }
            if reply.count > 256 { break }
        }
        return Self.repliesShowSixel(String(decoding: reply, as: UTF8.self))
    }

    /// Whether the answers to XTSMGRAPHICS and DA1 say sixel works.
    static func repliesShowSixel(_ text: String) -> Bool {
        var sixel = false
        for reply in text.split(separator: "\u{1B}") where reply.hasPrefix("[?") {
            let body = reply.dropFirst(2)
            if body.hasSuffix("S") {
                // CSI ? 2 ; status ; ... S: status 0 is success.
                let p = body.dropLast().split(separator: ";")
                if p.count >= 2, p[0] == "2", p[1] == "0" { sixel = true }
            } else if body.hasSuffix("c") {
                if body.dropLast().split(separator: ";").dropFirst().contains("4") { sixel = true }
            }
        }
        return sixel
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

    /// Next key, or nil at end of input. Escape sequences are decoded whole (`KeyDecoder`); unknown ones
    /// are dropped rather than typed as letters.
    func readKey() -> Key? {
        if !raw { return readLine(strippingNewline: true).map { .line($0.trimmingCharacters(in: .whitespaces)) } }
        while true {
            guard let b = readByte() else { return nil }
            // Bytes of one sequence arrive together; 30 ms without one means a lone Esc.
            if let key = KeyDecoder.decode(b, next: { self.readByte(timeoutMilliseconds: b == 27 ? 30 : 100) }) { return key }
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
