/// One of CLDR's plural categories: which form of a word a number takes in a language.
///
/// The names are labels, not meanings: Russian uses `one` for 21 and `many` for 5,
/// French uses `one` for 0 and 1.5. Every language has `other`; most have only a few of the rest.
/// Cases are in CLDR's order, which is also the order translators list forms in.
public enum PluralCategory: String, Sendable, CaseIterable {
    /// Arabic 0, Welsh 0, Cornish 0.
    case zero
    /// English and German 1, French 0 to 1.99, Russian 1, 21, 31…
    case one
    /// Arabic and Welsh 2, Slovenian 2, 102…
    case two
    /// Russian 2–4, 22–24…, Czech 2–4, Arabic 3–10, 103–110…
    case few
    /// Russian 0, 5–20…, Polish 5–21…, Czech fractions, French and Spanish millions.
    case many
    /// Whatever no other category takes; the only category of Japanese or Chinese.
    case other
}
