import Foundation

/// One file of the built site, before it is written.
public struct OutputFile: Sendable {
    public enum Contents: Sendable {
        case data(Data)
        /// A file copied as it is, read only when written.
        case copy(from: String)
        /// Written already, into the new output folder it was handed to while the build went
        /// on (`StagedOutput`): its bytes are not held.
        case written
    }

    /// Relative to the output folder, with `/` separators.
    public var path: String
    public var contents: Contents

    public init(path: String, contents: Contents) {
        self.path = path
        self.contents = contents
    }

    public static func text(_ path: String, _ text: String) -> OutputFile {
        OutputFile(path: path, contents: .data(Data(text.utf8)))
    }
}
