import Testing

/// The preview server's tests, in one suite so `swift test --filter Serve` runs them all.
///
/// Each file adds its suite in an extension; fixtures and the browser driver live beside them.
@Suite enum Serve {}
