import Foundation

/// The site's icons, made from one image (`favicon.svg` or `favicon.png` among the static files,
/// or `icon:` of site.yml): the PNGs browsers, home screens and app launchers ask for, a
/// `favicon.ico` for the browsers and tools that ask for nothing else, and a web manifest.
/// A file the site has at one of these paths is its own: it is neither made nor replaced.
public struct SiteIcons: Sendable {
    /// Output path → what it is, for `site.icons` and the manifest.
    public var files: [(path: String, side: Int)] = []
    public init() {}
    public var manifest: String?
    public var favicon: String?

    /// The icons made, by their fixed names: the names browsers and home screens look for.
    static let sizes: [(name: String, side: Int)] = [
        ("favicon-32.png", 32), ("apple-touch-icon.png", 180), ("icon-192.png", 192), ("icon-512.png", 512),
    ]

    /// `site.icons`: `png` (32 pixels), `appleTouchIcon`, `manifest`, each a URL or null.
    func view(basePath: String) -> ViewValue {
        func url(_ name: String) -> ViewValue { files.contains { $0.path == name } ? .string(basePath + name) : .null }
        return .object(ViewObject([
            ("png", url("favicon-32.png")), ("appleTouchIcon", url("apple-touch-icon.png")),
            ("manifest", manifest.map { .string(basePath + $0) } ?? .null),
        ]))
    }
}

extension Step where Product == RoutedSite {
    /// Makes the site's icons and web manifest from its icon, when images are processed.
    public static var makeSiteIcons: Step { Step("make site icons") { site, context in
        guard let images = site.loaded.configured.images else { return }
        let configuration = site.configuration
        let configured = configuration.icon
        let name = configured ?? ["favicon.svg", "favicon.png"].first { site.links.fileSources[$0] != nil }
        guard let name else { return }
        guard let source = site.links.fileSources[name] else {
            context.diagnostics.report(Diagnostic(
                .error, "no file \(name) for the site's icon", at: configuration.iconLocation,
                hint: "put the icon in static/ (an SVG or a PNG of at least 512 pixels), or remove `icon:`"))
            return
        }
        var icons = SiteIcons()
        do {
            for (file, side) in SiteIcons.sizes where site.links.fileSources[file] == nil {
                _ = try images.icon(at: source, side: side, name: file, reference: configuration.iconLocation)
                icons.files.append((file, side))
            }
            if site.links.fileSources["favicon.ico"] == nil, let png = icons.files.first(where: { $0.side == 32 }) {
                // An ICO holding the 32-pixel PNG, once it is made.
                images.addICO(at: "favicon.ico", holding: png.path)
                icons.favicon = "favicon.ico"
            }
        } catch let failure as ImageCodec.Failure {
            context.diagnostics.report(Diagnostic(.error, "the site's icon \(name) cannot be made into icons: \(failure)", at: configuration.iconLocation ?? SourceLocation(file: source), hint: failure.hint))
            return
        }
        if site.links.fileSources["manifest.webmanifest"] == nil {
            let manifest: [String: Any] = [
                "name": configuration.defaultLanguage.title ?? configuration.title,
                "short_name": configuration.defaultLanguage.title ?? configuration.title,
                "start_url": configuration.basePath, "scope": configuration.basePath, "display": "browser",
                "icons": icons.files.filter { $0.side >= 192 }.map { ["src": configuration.basePath + $0.path, "sizes": "\($0.side)x\($0.side)", "type": "image/png"] },
            ]
            if let data = try? JSONSerialization.data(withJSONObject: manifest, options: [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]) {
                images.add(data + Data("\n".utf8), at: "manifest.webmanifest")
                icons.manifest = "manifest.webmanifest"
            }
        }
        site.icons = icons
    } }
}
