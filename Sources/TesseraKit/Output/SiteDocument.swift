import Foundation

/// `api/site.json`: what an app needs before its first page: the site's title, its languages
/// with their home pages, and every menu of every language, resolved (an app's tab bar and
/// navigation drawer are the web's menus).
enum SiteDocument {
    static let format = "tessera.site"

    static func make(_ site: RoutedSite, writer: PageDocument) -> Data {
        let configuration = site.configuration
        let basePath = configuration.basePath
        let languages = configuration.languages.map { language -> JSONValue in
            let home = basePath + (language.urlPrefix + "/").dropFirst()
            var object: JSONObject = [
                "code": .string(language.code), "name": .string(language.name),
                "direction": .string(language.isRightToLeft ? "rtl" : "ltr"), "home": .string(home),
            ]
            if let title = language.title { object["title"] = .string(title) }
            if let json = writer.target(of: home)?.json, !json.isEmpty { object["json"] = .string(json) }
            return .object(object)
        }
        func json(_ item: MenuItem) -> JSONValue {
            var object: JSONObject = ["name": .string(item.title), "external": .bool(item.isExternal)]
            if let url = item.url {
                object["url"] = .string(url)
                if !item.isExternal, let json = writer.target(of: url)?.json, !json.isEmpty { object["json"] = .string(json) }
            }
            if let icon = item.icon { object["icon"] = .string(icon) }
            if !item.children.isEmpty { object["children"] = .array(item.children.map(json)) }
            return .object(object)
        }
        let menus = site.menus.menus.mapValues { named in JSONValue.object(JSONObject(named.mapValues { JSONValue.array($0.map(json)) })) }
        let document: JSONObject = [
            "format": .string(format), "version": .int(PageDocument.version),
            "title": .string(configuration.title), "languages": .array(languages), "menus": .object(JSONObject(menus)),
        ]
        return Data(JSONValue.object(document).bytes)
    }
}
