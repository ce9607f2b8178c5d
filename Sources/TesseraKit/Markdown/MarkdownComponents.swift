import CAllocation
import CCmarkGFM
import Foundation

/// Components placed in a page's Markdown body: a fenced block whose info string is
/// `component`, holding one component item in YAML, as in a content file's `items:` list:
///
/// ````markdown
/// ```component
/// component: notice
/// message: Mind the gap.
/// ```
/// ````
///
/// The renderer takes each out of the tree and leaves a marker line in the HTML
/// (`\u{5}N\u{6}`, bytes no content holds), where the page renders the component in its shell.
public enum MarkdownComponents {
    /// A component's YAML and where it is written.
    public struct Placed: Sendable, Equatable {
        public var yaml: String
        /// The YAML's first line in the Markdown (1-based): the line after the fence.
        public var line: Int
        /// The column the fence starts at: the YAML's lines start there too.
        public var column: Int
    }

    static let info = "component"

    /// Whether a code block is a fence of info string `component` (other words may follow).
    static func isFence(_ node: OpaquePointer) -> Bool {
        guard let info = cmark_node_get_fence_info(node) else { return false }
        var length: Int32 = 0, offset: Int32 = 0, character: CChar = 0
        guard cmark_node_get_fenced(node, &length, &offset, &character) != 0 else { return false }
        let words = String(cString: info).split(whereSeparator: { $0 == " " || $0 == "\t" })
        return words.first == Substring(Self.info)
    }

    /// Replaces each fence by its marker; their YAML, in order.
    static func takeOut(_ fences: [OpaquePointer]) -> [Placed] {
        var placed: [Placed] = []
        for fence in fences {
            let yaml = cmark_node_get_literal(fence).map { String(cString: $0) } ?? ""
            placed.append(Placed(yaml: yaml, line: Int(cmark_node_get_start_line(fence)) + 1, column: Int(cmark_node_get_start_column(fence))))
            guard let marker = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_BLOCK, tessera_markdown_allocator().assumingMemoryBound(to: cmark_mem.self)) else { continue }
            Self.marker(placed.count - 1).withCString { _ = cmark_node_set_on_enter(marker, $0) }
            if cmark_node_insert_before(fence, marker) != 0 { cmark_node_unlink(fence) }
        }
        return placed
    }

    /// What stands in the HTML for the component placed `index`-th.
    static func marker(_ index: Int) -> String { "\u{5}\(index)\u{6}" }

    /// What stands in a page body's HTML for its `index`-th code block (`MarkdownDocument.code`).
    static func codeMarker(_ index: Int) -> String { "\u{5}c\(index)\u{6}" }

    /// A marker's meaning: the text between its bytes.
    static func placed(_ text: Substring) -> Placement? {
        if text.first == "c" { return Int(text.dropFirst()).map(Placement.code) }
        return Int(text).map(Placement.component)
    }

    /// What a marker stands for.
    enum Placement: Equatable {
        case component(Int)
        case code(Int)
    }

    /// The HTML cut at each marker: the runs of HTML between them (empty ones dropped) and
    /// the components' and code blocks' indexes, in order.
    /// Read as bytes: it runs over every page body with a placed block.
    static func split(_ html: String) -> [Run] {
        var html = html
        return html.withUTF8 { bytes -> [Run] in
            var runs: [Run] = []
            func add(_ run: Range<Int>) {
                // A run of spaces and line breaks alone is no block.
                guard bytes[run].contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x09 && $0 != 0x0D }) else { return }
                runs.append(.html(String(decoding: UnsafeBufferPointer(rebasing: bytes[run]), as: UTF8.self)))
            }
            var start = 0
            // Up to the first marker that stands for nothing: from there on, HTML.
            for marker in markers(in: bytes) {
                guard let placement = marker.placement else { break }
                add(start..<marker.start)
                runs.append(.placed(placement))
                start = marker.end
                if start < bytes.count, bytes[start] == 0x0A { start += 1 }
            }
            add(start..<bytes.count)
            return runs
        }
    }

    /// Each marker in `bytes`: where its bytes start and end (\u{5} to \u{6} included), and
    /// what it stands for (nil: nothing `placed` reads).
    private static func markers(in bytes: UnsafeBufferPointer<UInt8>) -> [(start: Int, end: Int, placement: Placement?)] {
        var found: [(start: Int, end: Int, placement: Placement?)] = []
        var start = 0
        while let open = ByteSearch.firstIndex(of: 0x05, in: bytes, from: start), let close = ByteSearch.firstIndex(of: 0x06, in: bytes, from: open) {
            found.append((open, close + 1, placed(String(decoding: UnsafeBufferPointer(rebasing: bytes[(open + 1)..<close]), as: UTF8.self)[...])))
            start = close + 1
        }
        return found
    }

    enum Run: Equatable {
        case html(String)
        case placed(Placement)
    }

    /// Whether HTML holds a component's marker.
    static func hasMarkers(_ html: String) -> Bool { ByteSearch.contains("\u{5}", in: html) }

    /// The HTML with each marker replaced by `rendered(placement)` (a marker replaced by nothing,
    /// with its line break). The markers are found in the bytes (it runs over a whole page's
    /// HTML); the result is the runs of `html` between them and the replacements appended as
    /// strings, all valid UTF-8 already and cut at ASCII bytes. (Appended as bytes and decoded
    /// again, every page's whole HTML was validated once more: 2% of a build of plain posts.)
    static func replacingMarkers(in html: String, with rendered: (Placement) -> String) -> String {
        var html = html
        let markers = html.withUTF8 { Self.markers(in: $0) }
        guard !markers.isEmpty else { return html }
        let utf8 = html.utf8
        func index(_ offset: Int) -> String.Index { utf8.index(utf8.startIndex, offsetBy: offset) }
        var out = ""
        out.reserveCapacity(utf8.count + utf8.count / 2)
        var start = 0
        for marker in markers {
            out += html[index(start)..<index(marker.start)]
            let replacement = marker.placement.map(rendered) ?? ""
            out += replacement
            start = marker.end
            // A component left out takes its line with it.
            if replacement.isEmpty, start < utf8.count, utf8[index(start)] == 0x0A { start += 1 }
        }
        out += html[index(start)...]
        return out
    }
}
