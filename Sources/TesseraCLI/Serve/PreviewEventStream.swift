import Hummingbird
import ServiceLifecycle

/// The body of `/__tessera/events`: the hub's events as Server-Sent Events, for as long as the
/// browser stays connected.
///
/// The stream ends on graceful shutdown (`cancelOnGracefulShutdown`): an open event stream would
/// otherwise keep the server waiting for its connections forever, and SIGTERM would hang.
struct PreviewEventStream: Sendable {
    let hub: PreviewHub
    /// How long the stream may stay silent before a comment line keeps it open.
    let keepAliveInterval: Duration

    static let keepAliveComment = ": keep-alive\n\n"
    /// Sent once the browser is subscribed. `retry` makes EventSource reconnect after one second
    /// (the default is three) when the server restarts; `connected` tells the page it is listening.
    static let preamble = "retry: 1000\nevent: connected\ndata: {}\n\n"

    func makeBody() -> ResponseBody {
        let hub = hub
        let keepAliveInterval = keepAliveInterval
        return ResponseBody { writer in
            // Subscribe before saying `connected`, so a rebuild right after cannot slip through.
            let events = await hub.subscribe()
            try await writer.write(ByteBuffer(string: Self.preamble))
            let (chunks, continuation) = AsyncStream<String>.makeStream()
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await event in events.cancelOnGracefulShutdown() {
                        continuation.yield(event.message)
                    }
                    continuation.finish()
                }
                group.addTask {
                    while true {
                        try await Task.sleep(for: keepAliveInterval)
                        continuation.yield(Self.keepAliveComment)
                    }
                }
                // A write fails when the browser has gone; the throw cancels both producers, which
                // ends the hub subscription.
                for await chunk in chunks {
                    try await writer.write(ByteBuffer(string: chunk))
                }
                group.cancelAll()
            }
            try await writer.finish(nil)
        }
    }
}
