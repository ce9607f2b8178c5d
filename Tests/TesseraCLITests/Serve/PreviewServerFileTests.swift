import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import TesseraCLI

extension Serve {
    /// How the preview serves the built site: index pages, redirects, types, 404s, methods.
    struct PreviewServerFileTests {
        static let page = "<!doctype html><html><head><title>Home</title></head><body><h1>Home</h1></body></html>"

        @Test func servesIndexHTMLForTheRootAndForFolders() async throws {
            let site = try PreviewFixture(files: ["index.html": Self.page, "blog/index.html": "<body>Blog</body>"])
            try await site.test { client in
                let root = try await client.execute(uri: "/", method: .get)
                #expect(root.status == .ok)
                #expect(root.contentType == "text/html; charset=utf-8")
                #expect(root.text.contains("<h1>Home</h1>"))
                let blog = try await client.execute(uri: "/blog/", method: .get)
                #expect(blog.status == .ok)
                #expect(blog.text.hasPrefix("<body>Blog"))
            }
        }

        @Test func redirectsAFolderWithoutTrailingSlashKeepingTheQuery() async throws {
            let site = try PreviewFixture(files: ["blog/post/index.html": "post"])
            try await site.test { client in
                let plain = try await client.execute(uri: "/blog/post", method: .get)
                #expect(plain.status == .movedPermanently)
                #expect(plain.headers[.location] == "/blog/post/")
                let query = try await client.execute(uri: "/blog?page=2&sort=new", method: .get)
                #expect(query.headers[.location] == "/blog/?page=2&sort=new")
                // Empty segments are dropped, so the redirect can never point at another host.
                let doubled = try await client.execute(uri: "//blog", method: .get)
                #expect(doubled.headers[.location] == "/blog/")
            }
        }

        @Test(arguments: [
            ("page.html", "text/html; charset=utf-8"),
            ("style.css", "text/css; charset=utf-8"),
            ("app.js", "text/javascript; charset=utf-8"),
            ("logo.svg", "image/svg+xml"),
            ("photo.png", "image/png"),
            ("photo.JPG", "image/jpeg"),
            ("photo.webp", "image/webp"),
            ("font.woff2", "font/woff2"),
            ("feed.json", "application/json"),
            ("feed.xml", "application/xml"),
            ("robots.txt", "text/plain; charset=utf-8"),
            ("favicon.ico", "image/x-icon"),
            ("paper.pdf", "application/pdf"),
            ("archive.tar.zst", "application/octet-stream"),
            ("LICENSE", "application/octet-stream"),
        ])
        func sendsTheContentTypeOfTheExtension(file: String, contentType: String) async throws {
            let site = try PreviewFixture(files: [file: "x"])
            try await site.test { client in
                let response = try await client.execute(uri: "/" + file, method: .get)
                #expect(response.status == .ok)
                #expect(response.contentType == contentType)
                #expect(response.headers[.cacheControl] == "no-store")
            }
        }

        @Test func servesTheSites404PageWithStatus404AndTheScript() async throws {
            let site = try PreviewFixture(files: ["404.html": "<html><body><p>Lost?</p></body></html>"])
            try await site.test { client in
                let response = try await client.execute(uri: "/missing/page.html", method: .get)
                #expect(response.status == .notFound)
                #expect(response.text == "<html><body><p>Lost?</p>\(LiveReloadInjection.scriptTag)</body></html>")
            }
        }

        @Test func aLanguagesOwn404PageServesItsPaths() async throws {
            let site = try PreviewFixture(files: ["404.html": "<html><body>Lost?</body></html>", "fr/404.html": "<html><body>Perdu ?</body></html>"])
            try await site.test { client in
                let french = try await client.execute(uri: "/fr/missing/", method: .get)
                #expect(french.status == .notFound && french.text.contains("Perdu ?"))
                let german = try await client.execute(uri: "/de/missing/", method: .get)
                #expect(german.status == .notFound && german.text.contains("Lost?"))
                let root = try await client.execute(uri: "/missing", method: .get)
                #expect(root.status == .notFound && root.text.contains("Lost?"))
            }
        }

        @Test func fallsBackToABuiltIn404PageThatEscapesThePath() async throws {
            let site = try PreviewFixture()
            try await site.test { client in
                let response = try await client.execute(uri: "/%3Cscript%3E.html", method: .get)
                #expect(response.status == .notFound)
                #expect(response.contentType == "text/html; charset=utf-8")
                #expect(response.text.contains("<code>/&lt;script&gt;.html</code>"))
                #expect(response.text.contains(LiveReloadInjection.scriptTag))
            }
        }

        @Test func neverListsAFolder() async throws {
            let site = try PreviewFixture(files: ["assets/a.css": "a", "assets/b.css": "b"])
            try await site.test { client in
                let response = try await client.execute(uri: "/assets/", method: .get)
                #expect(response.status == .notFound)
                #expect(!response.text.contains("a.css"))
            }
        }

        @Test func aFileNamedWithATrailingSlashIsNotFound() async throws {
            let site = try PreviewFixture(files: ["about.html": "about"])
            try await site.test { client in
                let response = try await client.execute(uri: "/about.html/", method: .get)
                #expect(response.status == .notFound)
            }
        }

        @Test func injectsTheScriptIntoServedHTMLButLeavesTheFileOnDiskAlone() async throws {
            let site = try PreviewFixture(files: ["index.html": Self.page, "nobody.html": "<p>fragment</p>", "upper.html": "<BODY>x</BODY>"])
            try await site.test { client in
                let page = try await client.execute(uri: "/", method: .get)
                #expect(page.text == Self.page.replacingOccurrences(of: "</body>", with: LiveReloadInjection.scriptTag + "</body>"))
                #expect(page.headers[.contentLength] == String(page.body.readableBytes))
                let fragment = try await client.execute(uri: "/nobody.html", method: .get)
                #expect(fragment.text == "<p>fragment</p>" + LiveReloadInjection.scriptTag)
                let upper = try await client.execute(uri: "/upper.html", method: .get)
                #expect(upper.text == "<BODY>x" + LiveReloadInjection.scriptTag + "</BODY>")
            }
            #expect(try site.contents(of: "index.html") == Self.page)
            #expect(try site.contents(of: "nobody.html") == "<p>fragment</p>")
        }

        @Test func leavesNonHTMLAlone() async throws {
            let site = try PreviewFixture(files: ["data.json": "{\"body\": \"</body>\"}"])
            try await site.test { client in
                let response = try await client.execute(uri: "/data.json", method: .get)
                #expect(response.text == "{\"body\": \"</body>\"}")
            }
        }

        @Test func readsFilesAfreshOnEveryRequest() async throws {
            let site = try PreviewFixture(files: ["style.css": "body { color: red }"])
            try await site.test { client in
                #expect(try await client.execute(uri: "/style.css", method: .get).text == "body { color: red }")
                try site.write("style.css", "body { color: blue }")
                #expect(try await client.execute(uri: "/style.css", method: .get).text == "body { color: blue }")
            }
        }

        @Test func answersHEADWithTheHeadersOfGETAndNoBody() async throws {
            let site = try PreviewFixture(files: ["index.html": Self.page])
            try await site.test { client in
                let get = try await client.execute(uri: "/", method: .get)
                let head = try await client.execute(uri: "/", method: .head)
                #expect(head.status == .ok)
                #expect(head.body.readableBytes == 0)
                #expect(head.headers[.contentLength] == get.headers[.contentLength])
                #expect(head.contentType == "text/html; charset=utf-8")
            }
        }

        @Test(arguments: [HTTPRequest.Method.post, .put, .delete, .patch, .options])
        func refusesMethodsOtherThanGETAndHEAD(method: HTTPRequest.Method) async throws {
            let site = try PreviewFixture(files: ["index.html": Self.page])
            try await site.test { client in
                let response = try await client.execute(uri: "/", method: method)
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET, HEAD")
            }
        }

        @Test func saysTheSiteIsBeingBuiltWhileTheOutputFolderIsMissing() async throws {
            let site = try PreviewFixture()
            try FileManager.default.removeItem(atPath: site.output)
            try await site.test { client in
                let response = try await client.execute(uri: "/", method: .get)
                #expect(response.status == .serviceUnavailable)
                #expect(response.headers[.retryAfter] == "1")
                #expect(response.text.contains(LiveReloadInjection.scriptTag))
            }
        }
    }
}
