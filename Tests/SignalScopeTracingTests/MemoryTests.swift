import CTracingSupport
import Foundation
import Testing

@testable import SignalScopeHeap
@testable import SignalScopeTracing

/// Reading many words of this process's memory at once (`Memory.words`), as the allocation
/// table does to tell which objects are gone: words packed on a few pages are read a page at
/// a time, words spread thinly one element each, and either way every readable word reads
/// back and every unreadable one is `nil`. And the allocation table that those reads keep
/// small.
@Suite(.timeLimit(.minutes(10))) struct MemoryTests {
    @Test("Words read back whether packed on one page or spread one to a page, with unreadable addresses among them")
    func wordsReadBackPackedOrSpread() {
        let pageSize = 4096
        let pages = 64
        let region = UnsafeMutableRawPointer.allocate(byteCount: pageSize * pages, alignment: pageSize)
        defer { region.deallocate() }
        for index in 0..<(pageSize * pages / 8) {
            region.storeBytes(of: UInt(index) &* 0x9E37_79B9_7F4A_7C15, toByteOffset: index * 8, as: UInt.self)
        }
        let base = UInt(bitPattern: region)
        let packed = (0..<200).map { base + UInt($0 * 8) }
        let spread = (0..<pages).map { base + UInt($0 * pageSize + 64) }
        // The first page of the address space is never mapped.
        let unreadable: [UInt] = [0x10, 0x18]
        let addresses = packed + spread + unreadable + spread.reversed() + packed
        let words = Memory.words(at: addresses)
        #expect(words.count == addresses.count)
        for (address, word) in zip(addresses, words) {
            if unreadable.contains(address) {
                #expect(word == nil)
            } else {
                #expect(word == region.load(fromByteOffset: Int(address - base), as: UInt.self), "at offset \(address - base)")
            }
        }
    }

    /// Objects of one class made and freed in turn take the same few addresses, and each
    /// freed one's address holds an object of its class again, so the first-word test alone
    /// would keep an entry for every allocation: a table that grows with the work done, for
    /// as long as recordings overlap (tests run in parallel, a program recorded for hours).
    /// In a process of its own: the table is the process's, and the recordings of tests
    /// running beside this one would set how much of it is checked when.
    @Test("The allocation table keeps one entry for an address that objects of one class take in turn, however often")
    func oneEntryPerReusedAddress() async {
        await #expect(processExitsWith: .success, "fewer entries than a quarter of the allocations") {
            final class Churned {}
            let allocations = 1_000_000
            var entries = 0
            _ = Tracer.record {
                var last: Churned?
                for _ in 0..<allocations { last = Churned() }
                withExtendedLifetime(last) {}
                signalscope_allocations_merge()
                typealias Counted = (metadata: UInt, count: Int)
                var counted: Counted = (UInt(bitPattern: unsafeBitCast(Churned.self, to: UnsafeRawPointer.self)), 0)
                withUnsafeMutablePointer(to: &counted) { pointer in
                    _ = signalscope_allocations_visit(0, { batch, count, context in
                        let counted = context!.assumingMemoryBound(to: Counted.self)
                        for entry in UnsafeBufferPointer(start: batch, count: count) where entry.metadata == counted.pointee.metadata {
                            counted.pointee.count += 1
                        }
                    }, pointer)
                }
                entries = counted.count
            }
            // What the last check has not seen yet (as many entries as it kept, and a chunk
            // or two) may still be there; the million is not.
            exit(entries < allocations / 4 ? 0 : 1)
        }
    }
}
