import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HummingbirdTesting
import Testing
@testable import TesseraCLI

extension Serve {
    /// Nothing outside the output folder is ever served, however the path is spelled.
    struct PreviewServerSecurityTests {
        /// Paths a browser never sends: refused with 400 before the file system is looked at.
        @Test(arguments: [
            "/../outside/secret.txt",
            "/blog/../../outside/secret.txt",
            "/%2e%2e/outside/secret.txt",
            "/%2E%2E/outside/secret.txt",
            "/%2e%2E/outside/secret.txt",
            "/.%2e/outside/secret.txt",
            "/%252e%252e/outside/secret.txt",
            "/./index.html",
            "/index.html%00.png",
            "/index.html%2500",
            "/..%2foutside/secret.txt",
            "/..%5coutside%5csecret.txt",
            "/..\\outside\\secret.txt",
            "/bad%zzescape",
            "/%ff%fe.html",
        ])
        func refusesSuspiciousPathsWith400(path: String) async throws {
            let site = try PreviewFixture(files: ["index.html": "home", "blog/index.html": "blog"])
            try await site.test { client in
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .badRequest)
                #expect(!response.text.contains("secret outside the site"))
            }
        }

        @Test func aSymbolicLinkOutOfTheOutputIsNotFound() async throws {
            let site = try PreviewFixture(files: ["404.html": "<p>missing</p>"])
            try site.link("leak.txt", to: site.outside + "/secret.txt")
            try site.link("escape", to: site.outside)
            try site.link("relative.txt", to: "../outside/secret.txt")
            try await site.test { client in
                for path in ["/leak.txt", "/escape/secret.txt", "/escape/", "/relative.txt"] {
                    let response = try await client.execute(uri: path, method: .get)
                    #expect(response.status == .notFound, "\(path)")
                    #expect(!response.text.contains("secret outside the site"), "\(path)")
                }
            }
        }

        @Test func aSymbolicLinkInsideTheOutputIsServed() async throws {
            let site = try PreviewFixture(files: ["assets/real.css": "p{}"])
            try site.link("alias.css", to: "assets/real.css")
            try await site.test { client in
                let response = try await client.execute(uri: "/alias.css", method: .get)
                #expect(response.status == .ok)
                #expect(response.text == "p{}")
            }
        }

        @Test func anOutputFolderReachedThroughASymbolicLinkStillWorks() async throws {
            let site = try PreviewFixture(files: ["index.html": "home"])
            let linked = site.root + "/linked-output"
            try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: site.output)
            let server = PreviewServer(outputDirectory: linked, hub: site.hub, port: 0, logger: .init(label: "test"))
            try await server.makeApplication().test(.router) { client in
                let response = try await client.execute(uri: "/", method: .get)
                #expect(response.text.hasPrefix("home"))
            }
        }

        @Test func aFIFOIsNotFoundRatherThanReadForever() async throws {
            let site = try PreviewFixture()
            #expect(mkfifo(site.output + "/pipe.html", 0o600) == 0)
            try await site.test { client in
                let response = try await client.execute(uri: "/pipe.html", method: .get)
                #expect(response.status == .notFound)
            }
        }

        @Test func encodedNamesThatAreNotTraversalAreServed() async throws {
            let site = try PreviewFixture(files: ["my notes/café.html": "<p>ok</p>"])
            try await site.test { client in
                let response = try await client.execute(uri: "/my%20notes/caf%C3%A9.html", method: .get)
                #expect(response.status == .ok)
                #expect(response.text.hasPrefix("<p>ok</p>"))
            }
        }
    }
}
