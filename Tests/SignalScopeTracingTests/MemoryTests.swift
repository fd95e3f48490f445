import Testing

@testable import SignalScopeHeap
@testable import SignalScopeTracing

/// Reading many words of this process's memory at once (`Memory.words`), as the allocation
/// table does to tell which objects are gone: words packed on a few pages are read a page at
/// a time, words spread thinly one element each, and either way every readable word reads
/// back and every unreadable one is `nil`.
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
}
