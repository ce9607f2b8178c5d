import Synchronization

extension Page {
    /// The Markdown body. Its text is in a cell that every copy of the page shares (a page is
    /// copied at every step of a build, and into each list that shows it), so that a build that
    /// lets the text go frees it from all of them at once, and its words are counted once.
    struct Body: Sendable, Equatable {
        /// nil for an empty body.
        private let cell: BodyText?

        init(_ text: String) {
            cell = text.isEmpty ? nil : BodyText(.text(text))
        }

        /// Text left in the build cache's file until it is read (`StoredPages`): a page kept
        /// from the last build is never rendered, so its body is never read.
        init(stored: StoredText) {
            cell = BodyText(.stored(stored))
        }

        var text: String { cell?.text ?? "" }

        /// `MarkdownText.wordCount(text)`, counted when first asked.
        var wordCount: Int { cell?.wordCount ?? 0 }

        var isReleased: Bool { cell?.isReleased ?? false }

        /// Lets the text go, after counting its words if `countingWords` and nobody asked yet.
        /// `file` is for the message should anything read it afterwards.
        func release(countingWords: Bool, of file: String) {
            cell?.release(countingWords: countingWords, of: file)
        }

        static func == (lhs: Body, rhs: Body) -> Bool {
            lhs.cell === rhs.cell || lhs.text == rhs.text
        }
    }
}

/// The text of a page's body and its word count, shared by the copies of the page. Any copy may
/// be asked for either on one core while the page's renderer lets the text go on another: both
/// go through the lock.
final class BodyText: Sendable {
    enum Content: Sendable {
        case text(String)
        /// Read from the build cache's file each time it is asked: it holds no memory.
        case stored(StoredText)
        /// Let go by `release`; the page's source file, for the message.
        case released(file: String)
    }

    private let state: Mutex<(content: Content, words: Int?)>

    init(_ content: Content) {
        state = Mutex((content, nil))
    }

    var text: String {
        state.withLock { Self.text(of: $0.content) }
    }

    var wordCount: Int {
        state.withLock { state in
            if let words = state.words { return words }
            let words = MarkdownText.wordCount(Self.text(of: state.content))
            state.words = words
            return words
        }
    }

    var isReleased: Bool {
        state.withLock { state in
            if case .released = state.content { return true }
            return false
        }
    }

    func release(countingWords: Bool, of file: String) {
        state.withLock { state in
            guard case .text(let text) = state.content else { return }
            if countingWords, state.words == nil { state.words = MarkdownText.wordCount(text) }
            state.content = .released(file: file)
        }
    }

    private static func text(of content: Content) -> String {
        switch content {
        case .text(let text): return text
        case .stored(let stored): return stored.text
        case .released(let file):
            // A silent empty body would be a page, list or feed built wrong without a word.
            fatalError("the Markdown body of \(file) was read after the build let it go; build with `BuildOptions.keepsPageBodies` set to read bodies after rendering")
        }
    }
}
