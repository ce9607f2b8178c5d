import Foundation
@testable import TesseraClient

/// Hand-written documents following /work/spec34.md (format version 5).
enum Fixtures {
    /// A home page with one feed section exercising every resolution path, a body, and a key
    /// this client does not know (`page.newKey`).
    static let home = #"""
    {
      "format": "tessera.page",
      "version": 5,
      "page": {
        "id": "index", "url": "/", "json": "/index.json", "lang": "en", "tags": [],
        "title": "Learning", "date": "2026-11-01T00:00:00Z", "permalink": "https://example.com/",
        "minClientVersion": "1.2",
        "image": { "src": "/assets/cover.webp", "alt": "Cover", "external": false, "width": 1200, "height": 630,
                   "color": "#336699", "preview": "data:image/webp;base64,AAAA",
                   "variants": [{ "src": "/assets/cover-600.webp", "width": 600, "height": 315, "format": "webp" }] },
        "translations": [{ "lang": "fr", "url": "/fr/", "json": "/fr/index.json" }],
        "newKey": { "from": "a newer generator" }
      },
      "sections": [
        {
          "id": "dashboard",
          "layout": "grid",
          "layoutOptions": { "columns": 2, "dense": true, "style": "cards" },
          "header": { "id": "dashboard/text-1", "type": "text", "version": 1, "fields": { "text": "This week" } },
          "items": [
            { "id": "dashboard/stat-1", "type": "stat", "version": 1,
              "fields": { "label": "Learners this week", "value": { "text": "1,280", "value": 1280 },
                          "change": { "text": "12%", "value": 0.12 } },
              "computed": { "changeText": "+12%", "trend": "up", "good": true },
              "action": { "type": "navigate", "url": "/stats/", "page": "stats", "json": "/stats/index.json" },
              "url": "/stats/",
              "accessibility": { "label": "Learners this week: 1,280, up 12%" } },
            { "id": "dashboard/leaderboard-1", "type": "leaderboard", "version": 1,
              "fields": { "rows": [] },
              "action": { "type": "open-sheet", "url": "/leaderboard/" },
              "fallback": { "id": "dashboard/leaderboard-1/fallback", "type": "text", "version": 1,
                            "fields": { "text": "See the leaderboard on the web" } } },
            { "id": "dashboard/stat-2", "type": "stat", "version": 2,
              "fields": { "label": "Minutes", "value": { "text": "42", "value": 42 } },
              "fallback": { "id": "dashboard/stat-2/fallback", "type": "text", "version": 1, "fields": { "text": "Minutes: 42" } } },
            { "id": "dashboard/confetti-1", "type": "confetti", "version": 1, "fields": {}, "fallback": "hide" },
            { "id": "dashboard/chart-1", "type": "chart", "version": 3, "fields": {} },
            { "id": "dashboard/map-1", "type": "map", "version": 1, "fields": {},
              "fallback": { "id": "dashboard/map-1/globe", "type": "globe", "version": 1, "fields": {},
                            "fallback": { "id": "dashboard/map-1/text", "type": "text", "version": 1, "fields": { "text": "A map" } } } }
          ],
          "footer": { "id": "dashboard/text-2", "type": "text", "version": 1, "fields": { "text": { "html": "<p>Updated <em>daily</em></p>", "text": "Updated daily" } } },
          "more": { "json": "/index/sections/dashboard/index.json", "total": 12 }
        },
        { "id": "section-2", "layout": "list", "items": [] }
      ],
      "body": [
        { "kind": "markdown", "html": "<p>Hello</p>" },
        { "kind": "component", "component": { "id": "body/text-1", "type": "text", "version": 1, "fields": { "text": "Hi" } } },
        { "kind": "code", "code": "let x = 1", "language": "swift", "languageName": "Swift",
          "tokens": [["keyword", "let"], ["plain", " x = "], ["number", "1"]], "markedLines": [1] },
        { "kind": "video", "src": "/v.mp4" }
      ]
    }
    """#

    /// Page `n` of a 3-page blog list; `next` can be overridden to build a loop.
    static func blogPage(_ n: Int, total: Int = 3, next: String? = nil) -> String {
        let json = n == 1 ? "/blog/index.json" : "/blog/page/\(n)/index.json"
        let nextLink = next ?? (n < total ? "/blog/page/\(n + 1)/index.json" : nil)
        let previousLink = n == 1 ? nil : (n == 2 ? "/blog/index.json" : "/blog/page/\(n - 1)/index.json")
        let links = [nextLink.map { #""next": "\#($0)""# }, previousLink.map { #""previous": "\#($0)""# }]
            .compactMap { $0 }.map { ", " + $0 }.joined()
        return #"""
        {"format":"tessera.page","version":5,"page":{"id":"\#(n == 1 ? "blog" : "blog/page/\(n)")","url":"\#(json.replacingOccurrences(of: "index.json", with: ""))","json":"\#(json)","lang":"en","tags":[],"minClientVersion":"1.0",
         "pagination":{"current":\#(n),"total":\#(total),"items":25,"perPage":10,"first":"/blog/index.json","last":"/blog/page/\#(total)/index.json"\#(links)}},
         "sections":[{"id":"posts","layout":"list","items":[{"id":"posts/card-\#(n)","type":"card","version":1,"fields":{"title":"Post \#(n)"}}]}]}
        """#
    }

    /// Page `n` of the dashboard section's own endpoint (2 pages).
    static func sectionPage(_ n: Int) -> String {
        let next = n == 1 ? #","next":"/index/sections/dashboard/page/2/index.json""# : ""
        return #"""
        {"format":"tessera.section","version":5,"page":"index",
         "section":{"id":"dashboard","layout":"grid","items":[{"id":"dashboard/stat-\#(n)","type":"stat","version":1,"fields":{"label":"L","value":{"text":"\#(n)","value":\#(n)}}}]},
         "pagination":{"current":\#(n),"total":2,"items":2,"perPage":1,"first":"/index/sections/dashboard/index.json","last":"/index/sections/dashboard/page/2/index.json"\#(next)}}
        """#
    }

    static let index = #"""
    {"format":"tessera.index","version":5,"schema":"/api/schema.json","site":"/api/site.json",
     "pages":[{"id":"index","json":"/index.json","url":"/","lang":"en","title":"Learning"},
              {"id":"blog/first-post","json":"/blog/first-post/index.json","url":"/blog/first-post/","lang":"en","date":"2026-11-01T00:00:00Z"}]}
    """#

    static let site = #"""
    {"format":"tessera.site","version":5,"title":"Learning",
     "languages":[{"code":"en","name":"English","direction":"ltr","home":"/","json":"/index.json"}],
     "menus":{"en":{"main":[{"name":"Blog","url":"/blog/","json":"/blog/index.json","external":false,
       "children":[{"name":"GitHub","url":"https://github.com/x","external":true}]}]}}}
    """#

    static let notFound = #"""
    {"format":"tessera.page","version":5,"page":{"id":"404","url":"/404.html","json":"/404.json","lang":"en","tags":[],"title":"Not found","minClientVersion":"1"},"sections":[]}
    """#

    /// Every file of the fake site, by path.
    static var files: [String: String] {
        [
            "/index.json": home, "/404.json": notFound,
            "/api/index.json": index, "/api/site.json": site,
            "/blog/index.json": blogPage(1), "/blog/page/2/index.json": blogPage(2), "/blog/page/3/index.json": blogPage(3),
            "/index/sections/dashboard/index.json": sectionPage(1),
            "/index/sections/dashboard/page/2/index.json": sectionPage(2),
        ]
    }
}
