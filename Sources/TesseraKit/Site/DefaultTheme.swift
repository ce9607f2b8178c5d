import Foundation

/// The default theme, carried inside the binary so `tessera new` needs nothing else.
public enum DefaultTheme {
    public static let name = "default"

    /// Path below the theme folder → contents.
    public static var files: [(path: String, data: Data)] {
        encodedFiles.map { ($0.path, Data(base64Encoded: $0.base64) ?? Data()) }
    }
}
