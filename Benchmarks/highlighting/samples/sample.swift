import Foundation

/// A feed loader that fetches posts concurrently.
@MainActor
final class FeedViewModel: ObservableObject {
    @Published private(set) var posts: [Post] = []
    private let client: HTTPClient
    private var cache: [URL: Data] = [:]

    init(client: HTTPClient = .shared) {
        self.client = client
    }

    func reload(user: User) async throws {
        async let profile = client.fetchProfile(id: user.id)
        async let timeline = client.fetchTimeline(for: user.id, limit: 50)
        let (p, t) = try await (profile, timeline)
        print("Loaded \(t.count) posts for \(p.displayName) at \(Date())")
        posts = t.filter { $0.isVisible && !$0.tags.contains("draft") }
            .sorted { $0.date > $1.date }
    }

    nonisolated func title(for post: Post) -> String {
        guard let first = post.title.first else { return "Untitled #\(post.id)" }
        return String(first).uppercased() + post.title.dropFirst()
    }
}

enum LoadError: Error, CustomStringConvertible {
    case network(code: Int)
    case decoding(String)

    var description: String {
        switch self {
        case .network(let code): return "HTTP \(code)"
        case .decoding(let msg): return #"Bad JSON: "\#(msg)""#
        }
    }
}

let multiline = """
    Hello, \(name)!
    Total: \(items.reduce(0, +))
    """
