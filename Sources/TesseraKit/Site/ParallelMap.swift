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

    /// `map` whose transform may also change each element in place.
    static func mapMutating<Element, Result>(_ input: inout [Element], _ transform: (inout Element) -> Result) -> [Result] {
        guard input.count > 1 else { return input.indices.map { transform(&input[$0]) } }
        return withoutActuallyEscaping(transform) { transform in
            nonisolated(unsafe) let transform = transform
            let count = input.count
            var slots = [Result?](repeating: nil, count: count)
            slots.withUnsafeMutableBufferPointer { results in
                input.withUnsafeMutableBufferPointer { elements in
                    // Each iteration touches only its own slots, so sharing the buffers is safe.
                    nonisolated(unsafe) let results = results.baseAddress!
                    nonisolated(unsafe) let elements = elements.baseAddress!
                    DispatchQueue.concurrentPerform(iterations: count) { index in
                        results[index] = transform(&elements[index])
                    }
                }
            }
            return slots.map { $0! }
        }
    }

    /// `map` that takes the elements out of `input` (left empty) and lets each go as soon as it
    /// is transformed: what the elements hold is not all in memory next to all the results.
    static func mapReleasing<Element, Result>(_ input: inout [Element], _ transform: (Element) -> Result) -> [Result] {
        var pending = input.map(Optional.some)
        input = []
        guard pending.count > 1 else { return pending.map { transform($0!) } }
        return withoutActuallyEscaping(transform) { transform in
            nonisolated(unsafe) let transform = transform
            let count = pending.count
            var slots = [Result?](repeating: nil, count: count)
            slots.withUnsafeMutableBufferPointer { results in
                pending.withUnsafeMutableBufferPointer { elements in
                    // Each iteration touches only its own slots, so sharing the buffers is safe.
                    nonisolated(unsafe) let results = results.baseAddress!
                    nonisolated(unsafe) let elements = elements.baseAddress!
                    DispatchQueue.concurrentPerform(iterations: count) { index in
                        let element = elements[index].take()!
                        results[index] = transform(element)
                    }
                }
            }
            return slots.map { $0! }
        }
    }
}
