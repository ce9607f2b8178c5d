import Foundation
import Testing
@testable import TesseraClient

/// The registry with plain strings as "views": what matters is which factory ran on which component.
@Suite struct RegistryTests {
    let section: TesseraSection
    let registry: TesseraComponentRegistry<String>

    init() throws {
        section = try JSONDecoder().decode(TesseraPageDocument.self, from: Data(Fixtures.home.utf8)).sections[0]
        var registry = TesseraComponentRegistry<String>()
        registry.register("stat", upToVersion: 1) { "stat(\($0.fields["value"]?.text ?? "?"))" }
        registry.register("text") { component in component.fields["text"]?.text.map { "text(\($0))" } }
        self.registry = registry
    }

    private func item(_ id: String) throws -> TesseraComponentData {
        try #require(section.items.first { $0.id == id })
    }

    @Test func registeredTypeRendersItself() throws {
        guard case .view("stat(1,280)") = registry.resolve(try item("dashboard/stat-1")) else {
            Issue.record("stat v1 should render with its own factory")
            return
        }
    }

    @Test func unknownTypeRendersItsFallback() throws {
        guard case .fellBack(from: "leaderboard", "text(See the leaderboard on the web)") = registry.resolve(try item("dashboard/leaderboard-1")) else {
            Issue.record("an unknown type should render its fallback")
            return
        }
    }

    @Test func newerVersionOfRegisteredTypeFallsBack() throws {
        guard case .fellBack(from: "stat", "text(Minutes: 42)") = registry.resolve(try item("dashboard/stat-2")) else {
            Issue.record("stat v2 is beyond the registered v1 and should fall back")
            return
        }
        var newer = registry
        newer.register("stat", upToVersion: 2) { _ in "stat-v2" }
        #expect(newer.view(for: try item("dashboard/stat-2")) == "stat-v2")
        #expect(registry.canRender("stat", version: 1) && !registry.canRender("stat", version: 2) && !registry.canRender("map"))
    }

    @Test func hideAndMissingFallbackHide() throws {
        guard case .hidden(type: "confetti") = registry.resolve(try item("dashboard/confetti-1")),
              case .hidden(type: "chart") = registry.resolve(try item("dashboard/chart-1")) else {
            Issue.record("\"hide\" and no fallback should both hide")
            return
        }
    }

    @Test func fallbackChainsAreFollowedWithinTheDepthLimit() throws {
        let map = try item("dashboard/map-1")
        #expect(registry.view(for: map) == "text(A map)") // map → globe → text
        var shallow = registry
        shallow.maxFallbackDepth = 1
        guard case .hidden(type: "map") = shallow.resolve(map) else {
            Issue.record("a chain deeper than the limit should hide")
            return
        }
    }

    @Test func longFallbackChainsAreBounded() throws {
        // A fallback chain longer than any sane theme writes: resolution must stop, not spin.
        var json = #"{"id":"x","type":"t0","version":1,"fields":{}}"#
        for level in 1...50 { json = #"{"id":"x\#(level)","type":"t\#(level)","version":1,"fields":{},"fallback":\#(json)}"# }
        let deep = try JSONDecoder().decode(TesseraComponentData.self, from: Data(json.utf8))
        var registry = registry
        registry.register("t0") { _ in "bottom" }
        #expect(registry.view(for: deep) == nil)
        registry.maxFallbackDepth = 50
        #expect(registry.view(for: deep) == "bottom")
    }

    @Test func factoryReturningNilFallsBack() throws {
        var strict = registry
        strict.register("stat", upToVersion: 9) { $0.fields["label"]?.text == "Minutes" ? nil : "stat" }
        #expect(strict.view(for: try item("dashboard/stat-2")) == "text(Minutes: 42)")
    }

    @Test func sectionViewsInOrderSkippingHidden() {
        #expect(registry.views(for: section) == [
            "text(This week)",
            "stat(1,280)", "text(See the leaderboard on the web)", "text(Minutes: 42)", "text(A map)",
            "text(Updated daily)",
        ])
        let hidden = registry.resolutions(for: section).compactMap { resolution -> String? in
            if case .hidden(let type) = resolution { type } else { nil }
        }
        #expect(hidden == ["confetti", "chart"])
    }
}
