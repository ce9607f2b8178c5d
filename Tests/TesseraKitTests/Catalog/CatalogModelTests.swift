import Foundation
import Testing
@testable import TesseraKit

/// The Swift view data of the default theme's components: each model's logic, through the
/// theme's real schemas (so the fields a model reads are the ones content writes).
@Suite struct CatalogModelTests {
    let catalog: CatalogFixture

    init() throws {
        catalog = try CatalogFixture()
    }

    // MARK: payment-transaction

    @Test(arguments: [
        // amount, kind, direction, signed amount
        ("-12.5", nil, "debit", "−€12.50"),
        ("40", nil, "credit", "+€40.00"),
        ("0", nil, "none", "€0.00"),
        ("12.5", "debit", "debit", "−€12.50"),
        ("-12.5", "debit", "debit", "−€12.50"),
        ("25", "credit", "credit", "+€25.00"),
    ] as [(String, String?, String, String)])
    func paymentDirectionAndSign(amount: String, kind: String?, direction: String, signed: String) throws {
        let yaml = "{ component: payment-transaction, description: Plan, amount: { amount: \(amount), currency: EUR }\(kind.map { ", kind: \($0)" } ?? "") }"
        let view = try catalog.map(yaml)
        #expect(view.data["direction"]?.text == direction)
        #expect(view.data["signedAmount"]?.text == signed)
        #expect(view.data["debit"] == .bool(direction == "debit"))
        #expect(view.data["credit"] == .bool(direction == "credit"))
    }

    @Test func paymentUsesTheSiteCurrencyAndLocale() throws {
        #expect(try catalog.text("signedAmount", of: "{ component: payment-transaction, description: Tip, amount: -3 }") == "−$3.00")
        let german = try #require(try catalog.text("signedAmount", of: "{ component: payment-transaction, description: Miete, amount: { amount: -1250, currency: EUR } }", locale: "de_DE"))
        #expect(german.hasPrefix("−1.250,00"))
        #expect(german.hasSuffix("€"))
    }

    @Test func paymentRefusesACreditWithANegativeAmount() throws {
        #expect(throws: TesseraError.self) {
            try catalog.map("{ component: payment-transaction, description: Refund, amount: -5, kind: credit }")
        }
        #expect(throws: TesseraError.self) { try PaymentTransactionModel.direction(amount: -5, kind: "credit") }
        #expect(try PaymentTransactionModel.direction(amount: 5, kind: nil) == .credit)
    }

    // MARK: course-progress

    @Test(arguments: [
        ("0", "Not started", false),
        ("0.42", "42% complete", false),
        ("\"99%\"", "99% complete", false),
        ("1", "Completed", true),
    ])
    func courseStatus(progress: String, status: String, complete: Bool) throws {
        let view = try catalog.map("{ component: course-progress, title: Swift, progress: \(progress) }")
        #expect(view.data["status"]?.text == status)
        #expect(view.data["complete"] == .bool(complete))
    }

    @Test(arguments: [
        ("fr_FR", "0.42", "Terminé à 42\u{A0}%"), ("fr_FR", "1", "Terminé"), ("fr_FR", "0", "Pas commencé"),
        ("de_DE", "0.42", "42\u{A0}% abgeschlossen"), ("de_DE", "0", "Nicht begonnen"),
        ("ar", "1", "مكتملة"), ("ar", "0", "لم تبدأ بعد"),
    ])
    func courseStatusInThePageLanguage(locale: String, progress: String, status: String) throws {
        #expect(try catalog.text("status", of: "{ component: course-progress, title: Swift, progress: \(progress) }", locale: locale) == status)
    }

    @Test func signedChangeStaysLeftToRightInArabic() throws {
        let up = try #require(try catalog.text("changeText", of: "{ component: stat, value: 3, label: x, change: 0.25 }", locale: "ar"))
        #expect(up.hasPrefix("\u{200E}+25"), "\(up.unicodeScalars.map { String($0.value, radix: 16) })")
        #expect(try catalog.text("changeText", of: "{ component: stat, value: 3, label: x, change: 0.25 }", locale: "en_US") == "+25%")
    }

    @Test func labelsForScreenReadersAreInThePageLanguage() throws {
        #expect(try catalog.text("kindLabel", of: "{ component: activity, type: badge, description: x }", locale: "de_DE") == "Abzeichen erhalten")
        #expect(try catalog.text("directionLabel", of: "{ component: payment-transaction, description: x, amount: -3 }", locale: "fr_FR") == "Débit")
        #expect(try catalog.text("trendLabel", of: "{ component: stat, value: 3, label: x, change: 0.1 }", locale: "ar") == "ارتفاع")
    }

    // MARK: stat

    @Test(arguments: [
        // change, goodWhen, changeText, trend, good, bad
        ("0.12", "up", "+12%", "up", true, false),
        ("-0.03", "up", "−3%", "down", false, true),
        ("-0.5", "down", "−50%", "down", true, false),
        ("0.2", "down", "+20%", "up", false, true),
        ("0", "up", "0%", "flat", false, false),
    ])
    func statChange(change: String, goodWhen: String, text: String, trend: String, good: Bool, bad: Bool) throws {
        let view = try catalog.map("{ component: stat, value: 5, label: Lessons, change: \(change), goodWhen: \(goodWhen) }")
        #expect(view.data["changeText"]?.text == text)
        #expect(view.data["trend"]?.text == trend)
        #expect(view.data["good"] == .bool(good))
        #expect(view.data["bad"] == .bool(bad))
    }

    @Test func statWithoutChangeHasNoChangeText() throws {
        let view = try catalog.map("{ component: stat, value: 42, label: Courses }")
        #expect(view.data["changeText"] == .null)
        #expect(view.data["trend"]?.text == "flat")
    }

    // MARK: segment

    @Test func segmentIsCurrentOnItsOwnPage() throws {
        let segment = "{ component: segment, title: Activity, link: /activity/ }"
        #expect(try catalog.map(segment, pageURL: "/activity/").data["current"] == .bool(true))
        #expect(try catalog.map(segment, pageURL: "/").data["current"] == .bool(false))
        #expect(try catalog.map(segment, pageURL: "/activity/", basePath: "/blog/").data["current"] == .bool(true), "under a base path")
        #expect(try catalog.map("{ component: segment, title: Here, link: ./ }", pageURL: "/billing/").data["current"] == .bool(true))
        #expect(try catalog.map("{ component: segment, title: Out, link: \"https://www.swift.org/\" }").data["current"] == .bool(false))
    }

    @Test(arguments: [
        ("/activity/", "/activity/", true),
        ("/activity/?sort=new", "/activity/", true),
        ("/activity/#today", "/activity/", false),
        ("/", "/activity/", false),
        ("/activity", "/activity/", false),
    ])
    func segmentCurrentRule(link: String, page: String, current: Bool) {
        #expect(SegmentModel.isCurrent(link: link, pageURL: page) == current)
    }

    // MARK: comment, activity, banner, image

    @Test(arguments: [("Grace Hopper", "GH"), ("Ada", "A"), ("jean-luc picard", "JP"), ("Ada  King Lovelace", "AL"), ("", "")])
    func commentInitials(name: String, initials: String) {
        #expect(CommentModel.initials(of: name, locale: Locale(identifier: "en_US")) == initials)
    }

    @Test func commentOffersInitialsForTheMissingAvatar() throws {
        #expect(try catalog.text("initials", of: "{ component: comment, text: Hi, commenter: Alan Turing }") == "AT")
    }

    @Test func activityTypeGivesLabelIconAndAccent() throws {
        let view = try catalog.map("{ component: activity, type: completed, description: Done }")
        #expect(view.data["kindLabel"]?.text == "Completed a course")
        #expect(view.data["icon"]?.text == "check")
        #expect(view.data["accent"]?.text == "green")
        #expect(try catalog.text("accent", of: "{ component: activity, type: completed, description: Done, accent: pink }") == "pink", "content's accent wins")
        for type in try #require(catalog.registry["activity"]?.schema.field("type")?.values) {
            #expect(ActivityModel.kinds[type] != nil, "the schema's type '\(type)' has a look")
        }
    }

    @Test(arguments: [
        ("New course: Concurrency in practice", "new-course-concurrency-in-practice"),
        ("Café — déjà vu!", "cafe-deja-vu"),
        ("!!!", "banner"),
    ])
    func bannerDismissKey(title: String, key: String) {
        #expect(BannerModel.slug(title) == key)
    }

    @Test func imageRatioBecomesAClassName() throws {
        #expect(try catalog.text("ratioName", of: "{ component: image, src: /assets/samples/avatar-1.svg, alt: A face, ratio: \"4:3\" }") == "4x3")
        #expect(try catalog.text("ratioName", of: "{ component: image, src: /assets/samples/avatar-1.svg, alt: A face }") == "16x9")
    }
}
