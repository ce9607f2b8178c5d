import Foundation

/// The partials a page's renders included through `{{>*name}}`, with the partials those name:
/// templates the page depends on that no scan of its templates' tags can list, so the cache
/// renders the page again when one of them changes.
final class DynamicPartialUse: @unchecked Sendable {
    /// Template keys: `partials/card`.
    private(set) var keys: Set<String> = []

    func record(_ keys: Set<String>) { self.keys.formUnion(keys) }
}
