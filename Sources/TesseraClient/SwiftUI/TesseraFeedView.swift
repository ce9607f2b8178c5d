#if canImport(SwiftUI)
import SwiftUI

/// A registry entry's product: a factory for the cell's `AnyView`, run on the main actor.
///
/// Registry factories are `@Sendable` and nonisolated, while SwiftUI views are main-actor types
/// under Swift 6; so a factory only reads the component's data and defers building the view to
/// the moment the feed's `body` (on the main actor) shows it.
public struct TesseraCell: Sendable {
    public let make: @MainActor @Sendable () -> AnyView

    public init<Content: SwiftUI.View>(@ViewBuilder _ content: @escaping @MainActor @Sendable () -> Content) {
        make = { AnyView(content()) }
    }
}

extension TesseraComponentRegistry where View == TesseraCell {
    /// The cells of this sketch: `stat`, `course-progress` and a generic `text` cell, which is
    /// what themes usually name as the `fallback` of newer components.
    public static var standardCells: Self {
        var registry = Self()
        registry.register("stat", upToVersion: 1) { component in
            guard let label = component.fields["label"]?.text, let value = component.fields["value"]?.text else { return nil }
            let change = component.computed["changeText"]?.string
            let good = component.computed["good"]?.bool ?? false, bad = component.computed["bad"]?.bool ?? false
            let spoken = component.accessibility?.label ?? "\(label): \(value)"
            return TesseraCell { StatCell(label: label, value: value, change: change, good: good, bad: bad, spokenLabel: spoken) }
        }
        registry.register("course-progress", upToVersion: 1) { component in
            guard let title = component.fields["title"]?.text,
                  let fraction = component.fields["progress"]?.numericValue else { return nil }
            let status = component.computed["status"]?.string ?? component.fields["progress"]?.text
            return TesseraCell { CourseProgressCell(title: title, fraction: fraction, status: status) }
        }
        registry.register("text") { component in
            let fields = component.fields
            guard let text = fields["text"]?.text ?? fields["title"]?.text ?? fields["label"]?.text else { return nil }
            return TesseraCell { Text(text) }
        }
        return registry
    }
}

/// A feed screen: loads one page and shows its sections as lists of registered cells. Unknown
/// components resolve through their fallbacks; a page that needs a newer app for some of them
/// is still shown, with a line that says an update shows it whole.
@MainActor
public struct TesseraFeedView: SwiftUI.View {
    private enum Phase: Sendable {
        case loading
        /// `outdated`: some component wants a newer app than this one (it shows a fallback).
        case loaded(TesseraPageDocument, outdated: Bool)
        case failed(String)
    }

    private let client: TesseraClient
    private let path: String
    private let registry: TesseraComponentRegistry<TesseraCell>
    @State private var phase = Phase.loading

    public init(client: TesseraClient, path: String, registry: TesseraComponentRegistry<TesseraCell> = .standardCells) {
        self.client = client
        self.path = path
        self.registry = registry
    }

    public var body: some SwiftUI.View {
        Group {
            switch phase {
            case .loading:
                ProgressView()
            case .failed(let message):
                VStack(spacing: 12) {
                    Text(message).multilineTextAlignment(.center)
                    Button("Try Again") { Task { await load() } }
                }
                .padding()
            case .loaded(let document, let outdated):
                List {
                    if outdated { Text("Update the app to see all of this page.").font(.footnote) }
                    ForEach(document.sections, id: \.id) { section in
                        Section {
                            ForEach(section.items) { item in
                                if let cell = registry.view(for: item) { cell.make() }
                            }
                        } header: {
                            if let header = section.header, let cell = registry.view(for: header) { cell.make() }
                        } footer: {
                            if let footer = section.footer, let cell = registry.view(for: footer) { cell.make() }
                        }
                    }
                }
                .refreshable { await load() }
                .navigationTitle(document.page.title ?? "")
            }
        }
        .task(id: path) { await load() }
    }

    private func load() async {
        do {
            let document = try await client.page(path)
            phase = .loaded(document, outdated: !client.isSupported(document))
        } catch is CancellationError {
            // The view went away or the path changed; the next task loads again.
        } catch {
            phase = .failed(error.localizedDescription)
        }
    }
}

private struct StatCell: SwiftUI.View {
    let label: String
    let value: String
    let change: String?
    /// Whether the change is good or bad news (a rise in errors is bad), from `computed`.
    let good: Bool
    let bad: Bool
    let spokenLabel: String

    var body: some SwiftUI.View {
        VStack(alignment: .leading, spacing: 4) {
            Text(label).font(.subheadline).foregroundStyle(.secondary)
            Text(value).font(.title.bold())
            if let change { Text(change).font(.caption.bold()).foregroundStyle(good ? Color.green : bad ? Color.red : Color.secondary) }
        }
        .accessibilityElement(children: .ignore)
        .accessibilityLabel(spokenLabel)
    }
}

private struct CourseProgressCell: SwiftUI.View {
    let title: String
    /// A fraction: 0.42 is 42 %, as Tessera writes percent values.
    let fraction: Double
    let status: String?

    var body: some SwiftUI.View {
        VStack(alignment: .leading, spacing: 6) {
            Text(title).font(.headline)
            ProgressView(value: min(max(fraction, 0), 1))
            if let status { Text(status).font(.caption).foregroundStyle(.secondary) }
        }
        .accessibilityElement(children: .combine)
    }
}
#endif
