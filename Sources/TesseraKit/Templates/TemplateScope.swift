import Foundation
import Mustache

/// The root of a render's context stack. Mustache asks the root last, so a name the root does not
/// have is a name nothing in the stack has: a missing variable, recorded to be reported as an error.
final class TemplateScope: MustacheParent {
    private let values: [String: Any]
    private(set) var missing: [String] = []

    init(_ values: [String: Any]) {
        self.values = values
    }

    func child(named name: String) -> Any? {
        if let value = values[name] { return value }
        if !missing.contains(name) { missing.append(name) }
        return nil
    }

    var names: [String] { values.keys.sorted() }
}
