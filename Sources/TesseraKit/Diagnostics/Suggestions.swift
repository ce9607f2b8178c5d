import Foundation

/// "Did you mean …?" for misspelt names: component codes, field names, layouts, link targets.
public enum Suggestions {
    /// The candidates closest to `name`, best first; only those a typo away.
    public static func nearest(to name: String, in candidates: some Sequence<String>, limit: Int = 3) -> [String] {
        let lowered = name.lowercased()
        let threshold = max(2, lowered.count / 3)
        var scored: [(name: String, distance: Int)] = []
        for candidate in candidates {
            let other = candidate.lowercased()
            let distance = editDistance(lowered, other)
            // Containment counts only for names long enough to mean something ("/" is in every path).
            let contained = min(other.count, lowered.count) >= 3 && (other.contains(lowered) || lowered.contains(other))
            let related = distance <= threshold || contained
            // A name that differs only in case (`baseUrl` for `baseURL`) is the closest of all.
            if other == lowered && candidate != name { scored.append((candidate, 0)) } else if related && other != lowered { scored.append((candidate, distance)) }
        }
        scored.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.name < $1.name }
        return scored.prefix(limit).map(\.name)
    }

    /// A hint sentence, or nil when nothing is close.
    public static func didYouMean(_ name: String, in candidates: some Sequence<String>) -> String? {
        let close = nearest(to: name, in: candidates)
        guard !close.isEmpty else { return nil }
        return "did you mean " + close.map { "'\($0)'" }.joined(separator: " or ") + "?"
    }

    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
