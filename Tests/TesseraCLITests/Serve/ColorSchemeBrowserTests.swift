import Foundation
import Testing
@testable import TesseraCLI

extension Serve {
    /// The default theme's light/dark toggle in a real browser (the system's scheme is light in
    /// headless Chromium): it switches, is remembered across pages, and goes back to following
    /// the system when the reader chooses the system's scheme again.
    @Suite(.enabled(if: HeadlessChromium.isAvailable, "chromium is not on PATH"), .serialized, .timeLimit(.minutes(2)))
    struct ColorSchemeBrowserTests {
        static let state = """
            JSON.stringify({ chosen: document.documentElement.dataset.colorScheme ?? null,
              pressed: document.querySelector('[data-color-scheme-toggle]').getAttribute('aria-pressed'),
              shown: !document.querySelector('[data-color-scheme-toggle]').hidden,
              background: getComputedStyle(document.body).backgroundColor,
              stored: localStorage.getItem('tessera-color-scheme') })
            """

        @Test func theToggleSwitchesIsRememberedAndCanGoBackToTheSystem() async throws {
            try await SearchBrowserTests.withPage("/") { page in
                let light = #"{"chosen":null,"pressed":"false","shown":true,"background":"rgb(244, 245, 247)","stored":null}"#
                try await page.waitUntil(Self.state, is: light)
                _ = try await page.evaluate("document.querySelector('[data-color-scheme-toggle]').click(), 'clicked'")
                let dark = #"{"chosen":"dark","pressed":"true","shown":true,"background":"rgb(14, 17, 22)","stored":"dark"}"#
                try await page.waitUntil(Self.state, is: dark)

                // Another page opens dark: the head applied the choice before the theme's script ran.
                let url = try #require(try await page.evaluate("location.origin"))
                try await page.navigate(to: url + "/blog/boats/")
                try await page.waitUntil("document.readyState", is: "complete")
                try await page.waitUntil(Self.state, is: dark)

                // Light is the system's: choosing it again forgets the choice.
                _ = try await page.evaluate("document.querySelector('[data-color-scheme-toggle]').click(), 'clicked'")
                try await page.waitUntil(Self.state, is: light)
            }
        }
    }
}
