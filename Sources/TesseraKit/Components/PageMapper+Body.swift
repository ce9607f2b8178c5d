import Foundation

extension PageMapper {
    /// A component placed in the page's body: its YAML read where it is written in the page's
    /// file (indented as its fence, so columns are the file's), checked and mapped as an item.
    func embed(_ placed: MarkdownComponents.Placed, in page: Page, context: TransformContext) throws -> ComponentView {
        let indent = String(repeating: " ", count: max(placed.column - 1, 0))
        let yaml = indent.isEmpty ? placed.yaml : placed.yaml.split(separator: "\n", omittingEmptySubsequences: false).map { $0.isEmpty ? "" : indent + $0 }.joined(separator: "\n")
        let what = "a component in the body"
        let node = try YAMLParser.parseMapping(yaml, file: page.sourcePath, lineOffset: page.bodyLine + placed.line - 2, what: what)
        let use = try ComponentUse.parse(node, what: what)
        if use.code == BodyComponent.code {
            throw TesseraError("the body cannot be placed inside itself", at: use.codeLocation, hint: "place `component: body` in a section, not in the Markdown")
        }
        return try mapper.map(use, context: context)
    }
}
