import CAllocation
import Foundation
import Testing
@testable import TesseraKit

/// Values that long-lived tables keep (formatted numbers, templates parsed once per process)
/// hold their parts through plain pointers, so LeakSanitizer (`make fuzz`) sees them.
///
/// A leak checker scans memory for words that point into heap blocks. Swift may keep an enum's
/// case in the spare high bits of a pointer of its payload; such a word points nowhere, and the
/// block it stands for is reported as leaked while the table still holds it.
///
/// Where the C library cannot tell a block's size (not glibc), there is nothing to scan with.
@Suite(.enabled(if: PlainPointerScan.canSizeBlocks)) struct LeakCheckerVisibilityTests {
    @Test(arguments: ["x", String(repeating: "a formatted value's text ", count: 3)])
    func aFormattedValueReachesItsParts(text: String) {
        let parts = ViewObject([("value", .number(42))])
        #expect(PlainPointerScan.finds(PlainPointerScan.block(of: parts), in: ViewValue.formatted(text, parts)))
    }

    @Test func anObjectValueReachesItsObject() {
        let object = ViewObject([("title", .string("A"))])
        #expect(PlainPointerScan.finds(PlainPointerScan.block(of: object), in: ViewValue.object(object)))
    }

    /// Every kind of node that holds an array: the array's buffer is found from the node.
    @Test(arguments: ["{{#a}}x{{/a}}", "{{^a}}x{{/a}}", "{{$a}}x{{/a}}", "{{name.part}}"])
    func aTemplateNodeReachesWhatItHolds(template: String) throws {
        let node = try #require(try MustacheSyntax(parsing: template).nodes.first)
        let held: [UInt]? = switch node {
        case .section(_, let inner, _), .invertedSection(_, let inner), .block(_, let inner, _): PlainPointerScan.buffer(of: inner)
        case .variable(let name, _): PlainPointerScan.buffer(of: name.parts)
        default: nil
        }
        let buffer = try #require(held, "\(node)")
        #expect(PlainPointerScan.finds(buffer[0]..<buffer[1], in: node), "\(node)")
    }
}

/// Memory as LeakSanitizer reads it: a word points into a block when its value, taken as an
/// address, falls inside it.
enum PlainPointerScan {
    static let canSizeBlocks: Bool = {
        let object = ViewObject([])
        return withExtendedLifetime(object) { !block(of: object).isEmpty }
    }()

    /// Whether a word of `value`, or a word of a heap block one of them points to, points into `block`.
    static func finds<Value>(_ block: Range<UInt>, in value: Value) -> Bool {
        let words = withUnsafeBytes(of: value) { raw in
            (0..<raw.count / 8).map { raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt.self) }
        }
        if words.contains(where: block.contains) { return true }
        return words.filter(isHeapBlock).contains { word in
            let start = UnsafeRawPointer(bitPattern: word)!
            let size = Int(tessera_heap_block_size(start))
            return (0..<size / 8).contains { block.contains(start.load(fromByteOffset: $0 * 8, as: UInt.self)) }
        }
    }

    /// Whether a word can be a block malloc returned: 16-byte aligned, above the first megabyte
    /// and below the top of a 47-bit user address space (stuffed bits sit above it).
    static func isHeapBlock(_ word: UInt) -> Bool {
        word % 16 == 0 && word > 1 << 20 && word < 1 << 47
    }

    static func block(of object: AnyObject) -> Range<UInt> {
        let start = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
        return UInt(bitPattern: start)..<UInt(bitPattern: start) + UInt(tessera_heap_block_size(start))
    }

    /// The heap block of a non-empty array's storage, as its first and last-plus-one address.
    static func buffer<Element>(of array: [Element]) -> [UInt]? {
        array.withUnsafeBufferPointer { elements in
            guard let base = elements.baseAddress else { return nil }
            // The elements follow the buffer's 32-byte header.
            let start = UnsafeRawPointer(base) - 32
            return [UInt(bitPattern: start), UInt(bitPattern: start) + UInt(tessera_heap_block_size(start))]
        }
    }
}
