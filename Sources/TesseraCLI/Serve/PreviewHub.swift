import Foundation
import TesseraKit

/// Fans preview events out to every connected browser.
///
/// It remembers whether the site is currently broken, so a page opened (or reloaded) while the
/// last rebuild failed shows the error overlay at once, and clears it with the next good build.
public actor PreviewHub {
    private var subscribers: [UUID: AsyncStream<PreviewEvent>.Continuation] = [:]
    public private(set) var currentFailure: [Diagnostic]?

    public init() {}

    /// A stream of events for one browser; it starts with the current failure, if any.
    public func subscribe() -> AsyncStream<PreviewEvent> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<PreviewEvent>.makeStream(bufferingPolicy: .bufferingNewest(16))
        if let currentFailure { continuation.yield(.failed(currentFailure)) }
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        return stream
    }

    public func publish(_ event: PreviewEvent) {
        if case .failed(let diagnostics) = event { currentFailure = diagnostics } else { currentFailure = nil }
        for continuation in subscribers.values { continuation.yield(event) }
    }

    /// Ends every stream, so open connections close at shutdown.
    public func finishAll() {
        for continuation in subscribers.values { continuation.finish() }
        subscribers.removeAll()
    }

    public var subscriberCount: Int { subscribers.count }

    private func unsubscribe(_ id: UUID) {
        subscribers[id] = nil
    }
}
