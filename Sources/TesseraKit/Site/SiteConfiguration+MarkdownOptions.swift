extension SiteConfiguration {
    /// `markdown:` in site.yml: CommonMark with GitHub's extensions, each of which can be
    /// turned off.
    public struct MarkdownOptions: Sendable, Equatable {
        /// Curly quotes, dashes and ellipses.
        public var smart = true
        /// Let raw HTML in Markdown through; off by default so content cannot inject markup.
        public var unsafe = false
        /// GitHub's pipe tables.
        public var tables = true
        /// `~~struck~~` (and `~struck~`) text.
        public var strikethrough = true
        /// Bare `www.`, `https://` addresses and email addresses become links.
        public var autolinks = true
        /// `- [ ]` and `- [x]` list items become checkboxes.
        public var tasklists = true
        /// `[^note]` references and their definitions, listed at the end of the text.
        public var footnotes = true
        /// Code blocks coloured at build time (Pygments); off, they are written plain.
        public var highlight = true

        public init(smart: Bool = true, unsafe: Bool = false, tables: Bool = true, strikethrough: Bool = true,
                    autolinks: Bool = true, tasklists: Bool = true, footnotes: Bool = true, highlight: Bool = true) {
            self.highlight = highlight
            self.smart = smart
            self.unsafe = unsafe
            self.tables = tables
            self.strikethrough = strikethrough
            self.autolinks = autolinks
            self.tasklists = tasklists
            self.footnotes = footnotes
        }

        /// The keys of `markdown:`, in the order the documentation lists them.
        static let names = ["smart", "unsafe", "tables", "strikethrough", "autolinks", "tasklists", "footnotes", "highlight"]

        /// Sets the option called `name`; false when there is none.
        mutating func set(_ name: String, to value: Bool) -> Bool {
            switch name {
            case "smart": smart = value
            case "unsafe": unsafe = value
            case "tables": tables = value
            case "strikethrough": strikethrough = value
            case "autolinks": autolinks = value
            case "tasklists": tasklists = value
            case "footnotes": footnotes = value
            case "highlight": highlight = value
            default: return false
            }
            return true
        }
    }
}
