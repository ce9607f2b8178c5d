import Foundation

/// One browser tab under the DevTools protocol: navigate, evaluate JavaScript, wait for a value.
///
/// Commands go one at a time; the answer is the message with the same id, and everything else
/// (events, other sessions) is skipped.
final class DevToolsPage {
    private let browser: HeadlessChromium
    private var messages: AsyncStream<Data>.AsyncIterator
    private var nextID = 0
    private var sessionID: String?

    /// Opens a new tab and attaches to it.
    private var targetID = ""

    init(in browser: HeadlessChromium, url: String = "about:blank") async throws {
        self.browser = browser
        messages = browser.messages.makeAsyncIterator()
        let target = try await send("Target.createTarget", ["url": url])
        guard let targetID = target["targetId"] as? String else { throw BrowserError("no target id in \(target)") }
        self.targetID = targetID
        let session = try await send("Target.attachToTarget", ["targetId": targetID, "flatten": true])
        sessionID = session["sessionId"] as? String
        guard sessionID != nil else { throw BrowserError("no session id in \(session)") }
    }

    /// Sends a command to the tab (or to the browser before attaching) and returns its `result`.
    @discardableResult
    func send(_ method: String, _ parameters: [String: Any] = [:]) async throws -> [String: Any] {
        nextID += 1
        var command: [String: Any] = ["id": nextID, "method": method, "params": parameters]
        if let sessionID { command["sessionId"] = sessionID }
        try browser.send(try JSONSerialization.data(withJSONObject: command))
        while let data = await messages.next() {
            guard let answer = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                  answer["id"] as? Int == nextID else { continue }
            if let error = answer["error"] { throw BrowserError("\(method) failed: \(error)", answeredByBrowser: true) }
            return answer["result"] as? [String: Any] ?? [:]
        }
        throw BrowserError("the browser closed the DevTools pipe during \(method)")
    }

    /// Closes the tab.
    func close() async throws {
        let attached = sessionID
        sessionID = nil
        defer { sessionID = attached }
        try await send("Target.closeTarget", ["targetId": targetID])
    }

    /// Opens another tab of the same browser at `url`, without attaching to it.
    func openTab(_ url: String) async throws {
        let attached = sessionID
        sessionID = nil
        defer { sessionID = attached }
        try await send("Target.createTarget", ["url": url])
    }

    func navigate(to url: String) async throws {
        try await send("Page.navigate", ["url": url])
    }

    /// Evaluates JavaScript and returns its value as a string (nil for anything else, or when the
    /// page is between documents during a reload and the evaluation fails: callers poll).
    func evaluate(_ expression: String) async throws -> String? {
        let answer: [String: Any]
        do {
            answer = try await send("Runtime.evaluate", ["expression": expression, "returnByValue": true])
        } catch let error as BrowserError where error.answeredByBrowser {
            return nil
        }
        guard answer["exceptionDetails"] == nil, let result = answer["result"] as? [String: Any] else { return nil }
        return result["value"] as? String
    }

    /// Evaluates `expression` until it gives `expected`, within `timeout`: generous, since it
    /// returns as soon as the page is ready, and a browser on a two-core machine that is also
    /// running the rest of the suite can take many seconds to load a page.
    func waitUntil(_ expression: String, is expected: String, timeout: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + timeout
        var last: String?
        while ContinuousClock.now < deadline {
            last = try await evaluate(expression)
            if last == expected { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw BrowserError("`\(expression)` was \(last ?? "nil"), not \(expected), after \(timeout)")
    }
}
