import AsyncHTTPClient
import Foundation
import NIOCore
import ShelfScanTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Debian's headless Chromium, driven over the W3C WebDriver protocol (HTTP + JSON) through `chromedriver`:
/// the pages are tested in the browser people open them in, with its CSP, cookies and key events, and
/// without a test framework from another language. `scripts/setup.sh` installs both packages.
enum Chromium {
    static let browser = "/usr/bin/chromium"
    static let driver = "/usr/bin/chromedriver"

    static var isInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: browser) && FileManager.default.isExecutableFile(atPath: driver)
    }

    static let missing = "needs Debian's chromium and chromium-driver (/usr/bin/chromium, /usr/bin/chromedriver); scripts/setup.sh installs them"
}

/// One `chromedriver` on 127.0.0.1 (port 0: it picks a free one and says which on stdout) and one browser
/// session in it. `with(width:height:_:)` scopes both to a closure; `close()` ends them.
final class WebDriver: @unchecked Sendable {
    private let driver: Process
    private let output: LineCollector
    private let http = HTTPClient(eventLoopGroupProvider: .singleton)
    private let driverBase: String
    private let base: String

    /// How long a wait for the page may take before the test fails: generous, since CI is a busy 2-core machine
    /// and the wait ends as soon as the page is ready.
    static let deadline: TimeInterval = 30

    /// Starts the driver and a headless browser whose viewport is `width` x `height` CSS pixels at scale 1, and
    /// which keeps its console (`goog:loggingPrefs`) for `browserLog()`. The viewport is set by device metrics
    /// rather than the window's size: headless Chromium keeps a window at least 500 px wide, wider than a phone.
    static func start(width: Int = 1000, height: Int = 800) async throws -> WebDriver {
        // The free port the driver picks on IPv4 may be another process's on IPv6, which it binds apart (the other
        // tests' servers come and go): then it says "Address already in use" and never says it listens. A driver
        // started again picks another port.
        var attempt = 0
        while true {
            attempt += 1
            let (process, output, lines) = try launchDriver()
            if let line = lines.first(where: { $0.contains("started successfully on port") }),
               let port = Int(line.split(separator: " ").last?.filter(\.isNumber) ?? "") {
                return try await session(process, output, port: port, width: width, height: height)
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            guard attempt < 3, lines.contains(where: { $0.contains("Address already in use") }) else {
                throw HarnessError("chromedriver did not start: \(lines.joined(separator: "\n"))")
            }
        }
    }

    /// `chromedriver --port=0`, and what it printed until it said on which port it listens, stopped or 60 s passed.
    private static func launchDriver() throws -> (Process, LineCollector, [String]) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Chromium.driver)
        process.arguments = ["--port=0"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let output = LineCollector(pipe.fileHandleForReading)
        let lines = output.wait(deadline: Date().addingTimeInterval(60)) { $0.contains { $0.contains("started successfully on port") } }
        return (process, output, lines)
    }

    private static func session(_ process: Process, _ output: LineCollector, port: Int, width: Int, height: Int) async throws -> WebDriver {
        let base = "http://127.0.0.1:\(port)"
        let options: [String: Any] = [
            "binary": Chromium.browser,
            // --no-sandbox: CI runs as root in a container, where Chromium's sandbox cannot start.
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                     "--window-size=\(max(width, 500)),\(height + 200)", "--lang=en-US"],
            "mobileEmulation": ["deviceMetrics": ["width": width, "height": height, "pixelRatio": 1, "touch": false]],
        ]
        let capabilities: [String: Any] = ["capabilities": ["alwaysMatch": [
            "browserName": "chrome", "goog:chromeOptions": options, "goog:loggingPrefs": ["browser": "ALL"],
        ]]]
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        defer { Task { try? await http.shutdown() } }
        do {
            let created = try await Self.command(http, "POST", base + "/session", capabilities)
            guard let id = (created as? [String: Any])?["sessionId"] as? String else {
                throw HarnessError("chromedriver gave no session: \(String(describing: created))")
            }
            let driver = WebDriver(driver: process, output: output, driverBase: base, base: base + "/session/" + id)
            _ = try await driver.send("POST", "/timeouts", ["script": Int(deadline * 1000), "pageLoad": Int(deadline * 1000) * 2])
            return driver
        } catch {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw error
        }
    }

    /// A browser for `body`, closed when `body` returns or throws, so no browser outlives its test.
    static func with<T>(width: Int = 1000, height: Int = 800, _ body: (WebDriver) async throws -> T) async throws -> T {
        let driver = try await start(width: width, height: height)
        do {
            let result = try await body(driver)
            await driver.close()
            return result
        } catch {
            await driver.close()
            throw error
        }
    }

    private init(driver: Process, output: LineCollector, driverBase: String, base: String) {
        self.driver = driver; self.output = output; self.driverBase = driverBase; self.base = base
    }

    /// Ends the session (the browser quits) and the driver. The driver is told to stop over HTTP, then killed:
    /// started from the test process it inherits a signal mask with SIGTERM blocked, so `terminate()` never ends it.
    func close() async {
        _ = try? await send("DELETE", "", nil)
        _ = try? await Self.command(http, "GET", driverBase + "/shutdown", nil)
        try? await http.shutdown()
        if driver.isRunning { kill(driver.processIdentifier, SIGKILL) }
        driver.waitUntilExit()
    }

    // MARK: Commands

    /// Opens `url` and returns once the page has loaded (its deferred scripts have run).
    func open(_ url: String) async throws { _ = try await send("POST", "/url", ["url": url]) }

    func currentURL() async throws -> String { try await send("GET", "/url", nil) as? String ?? "" }

    /// Runs `body` as a function in the page (`arguments` are `args`) and returns its value as JSON gives it.
    @discardableResult
    func run(_ body: String, _ args: [Any] = []) async throws -> Any? {
        try await send("POST", "/execute/sync", ["script": body, "args": args])
    }

    /// Waits until the JavaScript expression `condition` holds in the page, then returns `value` (an expression
    /// read at that moment). The page itself re-checks every 50 ms, so the wait ends with the DOM it waited for;
    /// the script timeout (`deadline`) only ends a wait for a state that never comes, and the error then shows
    /// what the page said.
    ///
    /// A click that submits a form starts a navigation the driver does not wait for: the wait's script may start
    /// in the page being left, and die with it (chromedriver then answers at once, as a script timeout). The page
    /// is marked before the script runs, so such a wait is told from one that ran out of time: the mark is gone
    /// with the page, and the wait goes on in the page that replaced it.
    @discardableResult
    func wait(until condition: String, value: String = "true") async throws -> Any? {
        let script = """
            const done = arguments[arguments.length - 1];
            const check = () => { try { return (\(condition)); } catch (e) { return false; } };
            (function poll() { if (check()) { done(\(value)); } else { setTimeout(poll, 50); } })();
            """
        let mark = UUID().uuidString
        try await run("window.shelfscanWaitMark = arguments[0]", [mark])
        do {
            return try await send("POST", "/execute/async", ["script": script, "args": []])
        } catch {
            if (try? await run("return window.shelfscanWaitMark || ''")) as? String != mark {
                return try await wait(until: condition, value: value)
            }
            let page = (try? await run("return document.body ? document.body.innerText : ''")) as? String ?? ""
            throw HarnessError("the page never reached \(condition): \(error)\nThe page said:\n\(page)")
        }
    }

    /// Presses and releases each key in turn, as a person typing does: the events go to the focused element.
    func press(_ keys: String) async throws {
        let actions = keys.unicodeScalars.flatMap { key in
            [["type": "keyDown", "value": String(key)], ["type": "keyUp", "value": String(key)]]
        }
        _ = try await send("POST", "/actions", ["actions": [["type": "key", "id": "keyboard", "actions": actions]]])
        _ = try await send("DELETE", "/actions", nil)
    }

    /// The element's WebDriver reference, for `type` and `click`.
    func element(_ css: String) async throws -> String {
        let found = try await send("POST", "/element", ["using": "css selector", "value": css]) as? [String: Any]
        guard let id = found?.values.first as? String else { throw HarnessError("no element \(css)") }
        return id
    }

    func type(_ text: String, into css: String) async throws {
        _ = try await send("POST", "/element/\(try await element(css))/value", ["text": text])
    }

    func click(_ css: String) async throws {
        _ = try await send("POST", "/element/\(try await element(css))/click", [:])
    }

    /// The cookies the browser holds for the current page, as WebDriver describes them (name, value, httpOnly, sameSite…).
    func cookies() async throws -> [[String: Any]] { try await send("GET", "/cookie", nil) as? [[String: Any]] ?? [] }

    /// The viewport as a PNG.
    func screenshot() async throws -> Data {
        guard let base64 = try await send("GET", "/screenshot", nil) as? String, let png = Data(base64Encoded: base64) else {
            throw HarnessError("no screenshot")
        }
        return png
    }

    /// The console and network messages since the last call (chromedriver's log endpoint; it empties the log):
    /// each has `level` (SEVERE for errors), `source` (`javascript`, `network`, `console-api`, `security`…) and `message`.
    func browserLog() async throws -> [[String: Any]] {
        try await send("POST", "/se/log", ["type": "browser"]) as? [[String: Any]] ?? []
    }

    // MARK: Wire

    private func send(_ method: String, _ path: String, _ body: [String: Any]?) async throws -> Any? {
        try await Self.command(http, method, base + path, body)
    }

    /// One WebDriver command: JSON in, the reply's `value` out; an `error` in the reply is thrown with its message.
    private static func command(_ http: HTTPClient, _ method: String, _ url: String, _ body: [String: Any]?) async throws -> Any? {
        var request = HTTPClientRequest(url: url)
        request.method = .init(rawValue: method)
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
            request.body = .bytes(ByteBuffer(bytes: [UInt8](try JSONSerialization.data(withJSONObject: body))))
        }
        let response = try await http.execute(request, timeout: .seconds(Int64(deadline) * 4))
        let bytes = try await response.body.collect(upTo: 32 << 20)
        let json = try JSONSerialization.jsonObject(with: Data(bytes.readableBytesView), options: [.fragmentsAllowed]) as? [String: Any]
        let value = json?["value"]
        if let failure = value as? [String: Any], let error = failure["error"] as? String {
            throw HarnessError("WebDriver \(method) \(url.split(separator: "/").suffix(2).joined(separator: "/")): \(error): \(failure["message"] as? String ?? "")")
        }
        return value is NSNull ? nil : value
    }
}
