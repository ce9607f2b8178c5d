import Foundation

/// `page.toc`: the body's headings as a nested list, each with the deeper headings after it as
/// its `children` (an `h3` under the `h2` before it), for a table of contents.
enum TableOfContents {
    /// How many headings a body has before `page.hasToc` is true: the default theme shows a
    /// table of contents from three on, where one starts to help.
    static let shownFrom = 3

    /// Each heading as `{ level, text, id, url, children, hasChildren }`; `url` is `#id`.
    static func nested(_ headings: [MarkdownHeading]) -> [ViewValue] {
        tree(headings[...]).map(view)
    }

    /// The same as JSON, for the page JSON's `toc`.
    static func json(_ headings: [MarkdownHeading]) -> [JSONValue] {
        func json(_ node: Node) -> JSONValue {
            .object(["level": .int(node.heading.level), "text": .string(node.heading.text), "id": .string(node.heading.id),
                     "children": .array(node.children.map(json))])
        }
        return tree(headings[...]).map(json)
    }

    private struct Node {
        var heading: MarkdownHeading
        var children: [Node]
    }

    /// Headings in order into a tree: a heading's children are the deeper ones that follow it,
    /// up to the next one of its level or higher.
    private static func tree(_ headings: ArraySlice<MarkdownHeading>) -> [Node] {
        var nodes: [Node] = []
        var index = headings.startIndex
        while index < headings.endIndex {
            let heading = headings[index]
            var end = index + 1
            while end < headings.endIndex, headings[end].level > heading.level { end += 1 }
            nodes.append(Node(heading: heading, children: tree(headings[(index + 1)..<end])))
            index = end
        }
        return nodes
    }

    private static func view(_ node: Node) -> ViewValue {
        .object(ViewObject([
            ("level", .number(Double(node.heading.level))), ("text", .string(node.heading.text)), ("id", .string(node.heading.id)),
            ("url", .string("#" + node.heading.id)), ("children", .list(node.children.map(view))), ("hasChildren", .bool(!node.children.isEmpty)),
        ]))
    }
}
