import Foundation
import Glibc

/// A TCP proxy on 127.0.0.1 between a store and the test server. Once armed, it forwards the next COMMIT (a
/// simple query, or an extended-protocol Parse of COMMIT up to its Sync), waits for the server's answer, drops
/// it and closes both sides: the one moment a client cannot know whether its transaction was applied, with the
/// transaction certainly committed. Replies are held back by a gate closed before the COMMIT is forwarded, so
/// the outcome never depends on timing.
final class CommitCutProxy: @unchecked Sendable {
    // @unchecked Sendable: the mutable state below is only touched while `lock` is held.
    let port: Int
    private let listener: Int32
    private let targetPort: UInt16
    private let lock = NSLock()
    private var armed = false
    private var cutCount = 0
    private var open: [Int32] = []

    /// Listens on a free port of 127.0.0.1 and forwards every connection to `127.0.0.1:targetPort`.
    init(targetPort: Int) throws {
        self.targetPort = UInt16(targetPort)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, bound == 0, listen(fd, 16) == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Cuts the next COMMIT that passes; later connections (the store's reconnect) pass untouched.
    func armCutAfterNextCommit() { lock.withLock { armed = true } }
    /// How many connections were cut after a COMMIT.
    var cuts: Int { lock.withLock { cutCount } }

    func stop() {
        lock.withLock {
            shutdown(listener, Int32(SHUT_RDWR))
            for fd in open { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    deinit { close(listener) }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var a = sockaddr_in()
        a.sin_family = sa_family_t(AF_INET)
        a.sin_port = port.bigEndian
        a.sin_addr.s_addr = inet_addr("127.0.0.1")
        return a
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = Self.loopback(port: targetPort)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { close(client); close(server); continue }
            // Messages go on one by one; without TCP_NODELAY each small write would wait for the last one's ACK.
            var on: Int32 = 1
            for fd in [client, server] { setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size)) }
            let link = Link(client: client, server: server)
            lock.withLock { open += [client, server] }
            Thread.detachNewThread { [self] in clientToServer(link) }
            Thread.detachNewThread { [self] in serverToClient(link) }
        }
    }

    /// One proxied connection; `replies` is its gate for the server's answers. Its sockets are closed by the
    /// second of its two directions to end, so neither reads a descriptor the other closed.
    private final class Link: @unchecked Sendable {
        let client: Int32, server: Int32
        var replies = true
        var ended = 0
        init(client: Int32, server: Int32) { self.client = client; self.server = server }
    }

    private func serverToClient(_ link: Link) {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(link.server, &buffer, buffer.count)
            guard n > 0 else { break }
            let passed = lock.withLock { link.replies && writeAll(link.client, buffer[0..<n]) }
            guard passed else { break }
        }
        end(link)
    }

    /// Reads the client's messages whole (a length after the type byte; the startup message has no type), so a
    /// COMMIT is recognised wherever TCP splits the stream.
    private func clientToServer(_ link: Link) {
        var pending: [UInt8] = []
        var startup = true
        var commitParsed = false
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = read(link.client, &chunk, chunk.count)
            guard n > 0 else { break }
            pending += chunk[0..<n]
            while true {
                let header = startup ? 4 : 5
                guard pending.count >= header else { break }
                let lengthAt = startup ? 0 : 1
                let length = pending[lengthAt..<lengthAt + 4].reduce(0) { $0 << 8 | Int($1) }
                let total = lengthAt + length
                guard pending.count >= total else { break }
                let message = Array(pending[0..<total])
                pending.removeFirst(total)
                let type = startup ? 0 : message[0]
                startup = false
                let text = Self.firstQueryText(type: type, message)
                if type == UInt8(ascii: "P"), text == "COMMIT" { commitParsed = true }
                let cutsHere = (type == UInt8(ascii: "Q") && text == "COMMIT") || (type == UInt8(ascii: "S") && commitParsed)
                if type == UInt8(ascii: "S") { commitParsed = false }
                if cutsHere {
                    lock.withLock {
                        guard armed else { return }
                        armed = false
                        cutCount += 1
                        // Closed before the COMMIT goes on: no answer to it can pass, and the first to come ends
                        // the link (`serverToClient`). The transaction is then committed for certain and the
                        // client never hears so; ending the link here instead would race the server reading the
                        // COMMIT against the connection's reset.
                        link.replies = false
                    }
                }
                guard writeAll(link.server, message[...]) else { return end(link) }
            }
        }
        end(link)
    }

    /// The SQL of a simple query ('Q': the text) or a Parse ('P': a statement name, then the text), trimmed.
    private static func firstQueryText(type: UInt8, _ message: [UInt8]) -> String? {
        var fields = message.dropFirst(5).split(separator: 0, omittingEmptySubsequences: false)
        if type == UInt8(ascii: "P") { fields = Array(fields.dropFirst()) } else if type != UInt8(ascii: "Q") { return nil }
        return fields.first.map { String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).uppercased() }
    }

    private func writeAll(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
        var rest = bytes
        while !rest.isEmpty {
            // MSG_NOSIGNAL: a peer gone is an error here, not a SIGPIPE that ends the test run.
            let n = rest.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return false }
            rest = rest.dropFirst(n)
        }
        return true
    }

    private func end(_ link: Link) {
        shutdown(link.client, Int32(SHUT_RDWR))
        shutdown(link.server, Int32(SHUT_RDWR))
        lock.withLock {
            link.ended += 1
            guard link.ended == 2 else { return }
            open.removeAll { $0 == link.client || $0 == link.server }
            close(link.client)
            close(link.server)
        }
    }
}
