import Foundation

/// A `{{>*name}}` as one render met it: the template that holds the tag, and the partial its
/// value named. The tag's partial is known only while rendering, so errors inside it (and the tag
/// itself, when its value names nothing) are placed through these records.
struct DynamicInclude: Sendable, Equatable {
    /// The name after `*`, as written: `page.params.which`.
    var tag: String
    /// The partial holding the tag; nil for the template being rendered.
    var includer: String?
    /// The partial's name the value gave; empty when the value is no name.
    var partial: String
    /// Why nothing was included; nil when the partial rendered.
    var problem: Problem?

    enum Problem: Sendable, Equatable {
        /// No partial has the name the value gave.
        case unknownPartial
        /// The value is not text: "a list", "an object", "true or false".
        case notAName(String)
    }
}
