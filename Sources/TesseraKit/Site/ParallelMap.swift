import Foundation

/// Maps over a collection on every core, keeping the input order in the result.
enum ParallelMap {
    static func map<Element, Result>(_ input: [Element], _ transform: (Element) -> Result) -> [Result] {
        guard input.count > 1 else { return input.map(transform) }
        return withoutActuallyEscaping(transform) { transform in
            // Each iteration writes only its own slot, so sharing the buffer across threads is safe.
            nonisolated(unsafe) let transform = transform
            nonisolated(unsafe) let input = input
            var slots = [Result?](repeating: nil, count: input.count)
            slots.withUnsafeMutableBufferPointer { buffer in
                nonisolated(unsafe) let base = buffer.baseAddress!
                DispatchQueue.concurrentPerform(iterations: input.count) { index in
                    base[index] = transform(input[index])
                }
            }
            return slots.map { $0! }
        }
    }
}
