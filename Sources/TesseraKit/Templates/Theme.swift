import Foundation

/// A theme folder and the site folders that override it.
///
/// Every kind of template is looked up in the site first, then in the theme, so a site changes
/// one component or shell by adding one file.
public struct Theme: Sendable, Equatable {
    public enum Folder: String, Sendable, CaseIterable {
        case layouts, sections, shells, components, partials, markdown, `static`, i18n
    }

    public var name: String
    /// The name site.yml gives (`theme: default`): the folder's name; `name` may be theme.yml's.
    public var folderName: String = ""
    public var directory: String
    public var siteDirectory: String
    /// The shell of components whose schema names none.
    public var defaultShell: String = "plain"
    public var defaultShellLocation: SourceLocation?
    public var description: String?
    /// Symbolic links in the theme and the site's folders must stay below this folder (the site);
    /// nil when the site allows links that lead outside it.
    public var inputBoundary: String?
    /// True when the theme is the one built into Tessera (no `themes/default/` in the site).
    public var isBuiltIn = false
    /// The theme's options and their defaults (`params:` of theme.yml); a site's `params:` key of
    /// the same name wins.
    public var params: [ContentNode.Entry] = []

    static let keys = ["name", "description", "defaultShell", "params", "languages"]

    /// Site first, then theme.
    public func directories(_ folder: Folder) -> [String] {
        [siteDirectory + "/" + folder.rawValue, directory + "/" + folder.rawValue]
    }

    /// The files of a folder by relative path, the site's hiding the theme's of the same path;
    /// paths that cannot be read or followed go to `problems`.
    public func files(in folder: Folder, problems: DiagnosticCollector) -> [(relative: String, path: String)] {
        var seen = Set<String>()
        var result: [(String, String)] = []
        for directory in directories(folder) {
            for relative in FileTree.files(in: directory, boundary: inputBoundary, problems: problems) where seen.insert(relative).inserted {
                result.append((relative, directory + "/" + relative))
            }
        }
        return result.sorted { $0.0 < $1.0 }
    }

    /// Loads `themes/<name>/` and its `theme.yml`.
    public static func load(name: String, siteDirectory: String, location: SourceLocation?, allowExternalSymlinks: Bool = false) throws -> Theme {
        // The name becomes a path: one folder name, nothing that climbs out of themes/.
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\\"), !name.contains("\0") else {
            throw TesseraError("'\(name)' is not a theme name", at: location, hint: "name a folder of themes/, for example `theme: default`")
        }
        let themesDirectory = siteDirectory + "/themes"
        var directory = themesDirectory + "/" + name
        var isBuiltIn = false
        if name == DefaultTheme.name, !FileTree.isDirectory(directory) {
            directory = try DefaultTheme.installedDirectory()
            isBuiltIn = true
        }
        guard FileTree.isDirectory(directory) else {
            let folders = (try? FileManager.default.contentsOfDirectory(atPath: themesDirectory))?.filter { FileTree.isDirectory(themesDirectory + "/" + $0) } ?? []
            let available = Set(folders + [DefaultTheme.name]).sorted()
            throw TesseraError(
                "unknown theme '\(name)': there is no folder themes/\(name)", at: location,
                hint: Suggestions.didYouMean(name, in: available)
                    ?? "the themes here are \(available.joined(separator: ", ")); `tessera new theme \(name)` starts a new one")
        }
        var theme = Theme(name: name, directory: directory, siteDirectory: siteDirectory)
        theme.isBuiltIn = isBuiltIn
        theme.folderName = name
        theme.inputBoundary = allowExternalSymlinks ? nil : siteDirectory
        let file = directory + "/theme.yml"
        guard FileManager.default.fileExists(atPath: file) else { return theme }
        let root = try YAMLParser.parseMapping(try FileTree.readText(file), file: file, what: "theme.yml")
        for entry in root.entries ?? [] {
            switch entry.key {
            case "name": theme.name = entry.value.scalarText ?? name
            case "description": theme.description = entry.value.scalarText
            case "defaultShell":
                theme.defaultShell = entry.value.scalarText ?? theme.defaultShell
                theme.defaultShellLocation = entry.value.location
            case "params":
                guard let entries = entry.value.entries else {
                    throw TesseraError("'params' must be a mapping, found \(entry.value.kindDescription)", at: entry.value.location)
                }
                theme.params = entries
            case "languages": break
            default:
                throw TesseraError("unknown theme.yml key '\(entry.key)'", at: entry.keyLocation, hint: Suggestions.didYouMean(entry.key, in: keys) ?? "theme.yml takes \(keys.joined(separator: ", "))")
            }
        }
        return theme
    }

    /// `site.params`: the site's values, then the theme's defaults for the keys the site leaves out.
    public func params(over site: [ContentNode.Entry]) -> [ContentNode.Entry] {
        let named = Set(site.map(\.key))
        return site + params.filter { !named.contains($0.key) }
    }
}
