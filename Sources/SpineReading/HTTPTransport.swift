import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A reply as the transport saw it: status, lowercased header names, and a body capped at the configured size.
struct HTTPReply: Sendable {
    var status: Int
    var headers: [String: String]
    var body: Data

    /// `Retry-After` in seconds (either form: delta-seconds or an HTTP date).
    var retryAfter: Double? {
        guard let value = headers["retry-after"]?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Double(value) { return max(0, seconds) }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return f.date(from: value).map { max(0, $0.timeIntervalSinceNow) }
    }
}

/// URLSession with the two things its async API lacks on Linux: a hard per-attempt deadline and a cap
/// on how much of a reply is buffered (a runaway reply fails instead of filling memory).
final class HTTPTransport: Sendable {
    private let session: URLSession
    private let delegate: TransferDelegate

    init(maxResponseBytes: Int, maxConnections: Int) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = max(6, maxConnections)
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        delegate = TransferDelegate(maxBytes: maxResponseBytes)
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
    }

    deinit { session.finishTasksAndInvalidate() }

    /// Sends `request` once. Throws `ReaderError` for no reply within `timeout`, an unreachable host, a
    /// dropped connection or an oversized reply; any HTTP status is returned, not thrown.
    func send(_ request: URLRequest, timeout: Duration) async throws(ReaderError) -> HTTPReply {
        var request = request
        request.timeoutInterval = timeout.seconds + 5  // backstop; the deadline below is the real limit
        let task = Unchecked(session.dataTask(with: request))
        let id = task.value.taskIdentifier
        let delegate = self.delegate
        let timer = Task {
            try await Task.sleep(for: timeout)
            delegate.markTimedOut(id)
            task.value.cancel()
        }
        defer { timer.cancel() }
        let outcome: TransferDelegate.Outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                delegate.register(id, continuation)
                task.value.resume()
            }
        } onCancel: {
            task.value.cancel()
        }
        switch outcome {
        case .reply(let reply): return reply
        case .tooLarge: throw .responseTooLarge(delegate.maxBytes)
        case .timedOut: throw .timedOut(timeout.seconds)
        case .failed(let code, let text):
            if Task.isCancelled { throw .cancelled }
            throw Self.error(code: code, text: text, url: request.url)
        }
    }

    private static func error(code: Int, text: String, url: URL?) -> ReaderError {
        let base = url.map { "\($0.scheme ?? "http")://\($0.host ?? "")\($0.port.map { ":\($0)" } ?? "")" } ?? "the endpoint"
        switch URLError.Code(rawValue: code) {
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet:
            return .endpointUnreachable(base)
        case .timedOut:
            return ReaderError(.timedOut, "No answer from \(base) in time")
        default:
            // Dropped connections, empty replies, resets: worth retrying.
            return ReaderError(.server, "Connection to \(base) failed: \(text)")
        }
    }
}

/// Lets a non-Sendable Foundation object cross into the timer and cancellation closures. Safe here
/// because `URLSessionTask.cancel()` and `resume()` are documented thread-safe.
private struct Unchecked<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

/// Collects each task's bytes (up to the cap) and resumes its waiter exactly once.
private final class TransferDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    enum Outcome: Sendable {
        case reply(HTTPReply)
        case tooLarge
        case timedOut
        case failed(code: Int, text: String)
    }

    private struct Transfer {
        var continuation: CheckedContinuation<Outcome, Never>?
        var data = Data()
        var tooLarge = false
        var timedOut = false
    }

    let maxBytes: Int
    private let lock = NSLock()
    private var transfers: [Int: Transfer] = [:]

    init(maxBytes: Int) { self.maxBytes = maxBytes }

    func register(_ id: Int, _ continuation: CheckedContinuation<Outcome, Never>) {
        lock.withLock { transfers[id, default: Transfer()].continuation = continuation }
    }

    func markTimedOut(_ id: Int) {
        lock.withLock { transfers[id]?.timedOut = true }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overflow = lock.withLock { () -> Bool in
            guard var t = transfers[dataTask.taskIdentifier], !t.tooLarge else { return false }
            if t.data.count + data.count > maxBytes {
                t.tooLarge = true
                t.data = Data()
                transfers[dataTask.taskIdentifier] = t
                return true
            }
            t.data.append(data)
            transfers[dataTask.taskIdentifier] = t
            return false
        }
        if overflow { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let t = lock.withLock({ transfers.removeValue(forKey: task.taskIdentifier) }) else { return }
        let outcome: Outcome
        if t.tooLarge {
            outcome = .tooLarge
        } else if t.timedOut {
            outcome = .timedOut
        } else if let error {
            let ns = error as NSError
            outcome = .failed(code: ns.code, text: ns.localizedDescription)
        } else if let http = task.response as? HTTPURLResponse {
            var headers: [String: String] = [:]
            for (k, v) in http.allHeaderFields {
                if let k = k as? String, let v = v as? String { headers[k.lowercased()] = v }
            }
            outcome = .reply(HTTPReply(status: http.statusCode, headers: headers, body: t.data))
        } else {
            outcome = .failed(code: URLError.badServerResponse.rawValue, text: "no HTTP response")
        }
        t.continuation?.resume(returning: outcome)
    }
}
