import Foundation

/// The "cell registry" of a server-driven feed: each component type registers the factory that
/// renders it, so adding a cell is one `register` call instead of another case in a central
/// switch, and a type the app does not know resolves through the component's `fallback`.
///
/// `View` is whatever the app renders into (`AnyView`, `UIView`, a view model); the registry
/// never creates views itself. It is a value type: build it once at launch, then share it.
public struct TesseraComponentRegistry<View>: Sendable {
    /// What resolving one component came to, so an app can log the cells it could not show.
    public enum Resolution {
        /// The component's own factory made the view.
        case view(View)
        /// The app has no view for `from` (or not at that version); a fallback's view is shown.
        case fellBack(from: String, View)
        /// Nothing is shown: the fallback was `"hide"`, absent, or unrenderable as well.
        case hidden(type: String)

        /// The view to show, if any.
        public var view: View? {
            switch self {
            case .view(let view), .fellBack(_, let view): view
            case .hidden: nil
            }
        }
    }

    private struct Registration: Sendable {
        let upToVersion: Int
        let make: @Sendable (TesseraComponentData) -> View?
    }

    private var registrations: [String: Registration] = [:]

    /// How many fallbacks deep resolution follows before giving up: fallbacks are data from the
    /// server, and a misbuilt chain must not cost unbounded work on the main thread.
    public var maxFallbackDepth: Int

    public init(maxFallbackDepth: Int = 8) {
        self.maxFallbackDepth = maxFallbackDepth
    }

    /// Registers the factory for `type`, for component versions up to `upToVersion` (a newer
    /// version may have changed its fields' meaning, so it falls back instead). A factory may
    /// return nil when a component lacks what it needs; the component then falls back too.
    /// Registering a type again replaces its factory.
    public mutating func register(
        _ type: String, upToVersion: Int = .max, make: @escaping @Sendable (TesseraComponentData) -> View?
    ) {
        registrations[type] = Registration(upToVersion: upToVersion, make: make)
    }

    /// Whether a component of `type` at `version` has a factory.
    public func canRender(_ type: String, version: Int = 1) -> Bool {
        registrations[type].map { version <= $0.upToVersion } ?? false
    }

    /// Resolves a component: its own factory when registered at its version, else its fallback
    /// chain, else hidden.
    public func resolve(_ component: TesseraComponentData) -> Resolution {
        var current = component
        var depth = 0
        while true {
            if let registration = registrations[current.type], current.version <= registration.upToVersion,
               let view = registration.make(current) {
                return depth == 0 ? .view(view) : .fellBack(from: component.type, view)
            }
            guard depth < maxFallbackDepth, case .component(let next)? = current.fallback else {
                return .hidden(type: component.type)
            }
            current = next
            depth += 1
        }
    }

    /// The view for a component, or nil when it is hidden.
    public func view(for component: TesseraComponentData) -> View? { resolve(component).view }

    /// A section's views in display order (header, items, footer), hidden components skipped.
    public func views(for section: TesseraSection) -> [View] { section.components.compactMap(view(for:)) }

    /// Resolutions for a section's components in display order, hidden ones included, for
    /// logging what a screen could not show.
    public func resolutions(for section: TesseraSection) -> [Resolution] { section.components.map(resolve) }
}

extension TesseraComponentRegistry.Resolution: Sendable where View: Sendable {}
