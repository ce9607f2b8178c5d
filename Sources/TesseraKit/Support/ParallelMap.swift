import Foundation

/// Maps over a collection on every core, keeping the input order in the result.
enum ParallelMap {
    static func map<Element, Result>(_ input: [Element], _ transform: (Element) -> Result) -> [Result] {
        guard input.count > 1 else { return input.map(transform) }
        var elements = input
        return mapMutating(&elements) { transform($0) }
    }

    /// `map` that takes the elements out of `input` (left empty) and lets each go as soon as it
    /// is transformed: what the elements hold is not all in memory next to all the results.
    static func mapReleasing<Element, Result>(_ input: inout [Element], _ transform: (Element) -> Result) -> [Result] {
        var pending = input.map(Optional.some)
        input = []
        return mapMutating(&pending) { transform($0.take()!) }
    }

    /// `map` whose transform may also change each element in place; `order`, a permutation of
    /// the indexes, is the order in which elements are started (the results keep the input's).
    static func mapMutating<Element, Result>(_ input: inout [Element], order: [Int]? = nil, _ transform: (inout Element) -> Result) -> [Result] {
        precondition(order.map { $0.count == input.count } ?? true, "an order names every element")
        assert(order.map { Set($0) == Set(input.indices) } ?? true, "an order names each element once")
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
                    DispatchQueue.concurrentPerform(iterations: count) { turn in
                        let index = order?[turn] ?? turn
                        results[index] = transform(&elements[index])
                    }
                }
            }
            return slots.map { $0! }
        }
    }
}
