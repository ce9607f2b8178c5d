import Testing

/// The preview server's tests, in one suite so `swift test --filter Serve` runs them all.
///
/// Each file adds its suite in an extension; fixtures and the browser driver live beside them.
@Suite(.promptly) enum Serve {}

/// Runs each test at high priority, with the server it starts and the clients it connects.
///
/// The whole suite runs at once on a two-core machine: hundreds of synchronous tests wait for
/// the two threads of Swift's default-priority pool. A test that waits on a socket or a timer
/// joins the back of that queue each time it resumes: the event stream's tests took 196–223 s
/// for what takes 0.2 s alone, past the HTTP client's 20 s read timeout and the suite's time
/// limit. A high-priority task resumes before every queued default-priority job, as soon as a
/// thread is free, and the child tasks it starts (the server's connections, the stream's
/// writers) inherit its priority: the same tests then took 19 s in the whole suite.
struct PromptTrait: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func scopeProvider(for test: Test, testCase: Test.Case?) -> PromptTrait? {
        test.isSuite || testCase != nil ? nil : self
    }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        // The body does not outlive this call: the scope waits for its task to end.
        try await withoutActuallyEscaping(function) { body in
            try await Task(priority: .high) { try await body() }.value
        }
    }
}

extension Trait where Self == PromptTrait {
    static var promptly: PromptTrait { PromptTrait() }
}
