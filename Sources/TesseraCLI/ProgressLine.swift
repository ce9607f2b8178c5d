import Foundation
import TesseraKit

/// A build's live progress on one line of a terminal: the step, pages and images done out of
/// those known so far, and the time left at the rates so far. Drawn on standard error from a
/// second on (a quick build shows nothing), redrawn ten times a second, and cleared when the
/// build ends so that the summary takes its place. Never drawn when standard error is not a
/// terminal, under `CI=true`, or with `--format json`.
final class ProgressLine: @unchecked Sendable {
    let progress = BuildProgress()
    private let timer: DispatchSourceTimer
    private let lock = NSLock()
    private var drawn = false
    private let started = DispatchTime.now().uptimeNanoseconds
    /// Seconds before the line shows: 1, or `TESSERA_PROGRESS_DELAY` (tests show it at once).
    static let delay = ProcessInfo.processInfo.environment["TESSERA_PROGRESS_DELAY"].flatMap(Double.init) ?? 1.0

    /// Whether a line may be drawn: a terminal, not CI, text diagnostics.
    static func wanted(format: DiagnosticFormat, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        format == .text && isatty(STDERR_FILENO) != 0 && environment["TERM"] != "dumb"
            && !["true", "1"].contains(environment["CI"]?.lowercased() ?? "")
    }

    init() {
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        timer.schedule(deadline: .now() + Self.delay, repeating: 0.1)
        timer.setEventHandler { [weak self] in self?.draw() }
        timer.resume()
    }

    private func draw() {
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        let text = Self.text(progress.snapshot, seconds: seconds)
        lock.withLock {
            drawn = true
            Self.write("\r\u{1B}[2K" + String(text.prefix(max(20, Self.columns() - 1))))
        }
    }

    /// Stops drawing and clears the line.
    func finish() {
        timer.cancel()
        lock.withLock {
            if drawn { Self.write("\r\u{1B}[2K") }
            drawn = false
        }
    }

    /// `Building · render pages · 4,210/10,000 pages · 120/816 image files · about 6 s left`
    static func text(_ snapshot: BuildProgress.Snapshot, seconds: Double) -> String {
        var parts = ["Building", snapshot.step.isEmpty ? "starting" : snapshot.step]
        let count = { (n: Int) in n.formatted(.number.locale(Locale(identifier: "en_US"))) }
        if snapshot.pagesTotal > 0 { parts.append("\(count(snapshot.pagesDone))/\(count(snapshot.pagesTotal)) pages") }
        if snapshot.imagesTotal > 0 { parts.append("\(count(snapshot.imagesDone))/\(count(snapshot.imagesTotal)) image files") }
        if let left = snapshot.secondsLeft, snapshot.pagesTotal + snapshot.imagesTotal > 0 {
            parts.append(left < 1 ? "almost done" : left < 90 ? "about \(Int(left.rounded())) s left" : "about \(Int((left / 60).rounded())) min left")
        } else {
            parts.append("\(Int(seconds)) s")
        }
        return parts.joined(separator: " · ")
    }

    private static func columns() -> Int {
        var size = winsize()
        return ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
    }

    private static func write(_ text: String) {
        var text = text
        text.withUTF8 { _ = Foundation.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
