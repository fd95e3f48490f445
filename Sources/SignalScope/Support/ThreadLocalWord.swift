import CSignalScopeThreadWords

/// One machine word per thread, with no allocation.
///
/// The instrumentation seam uses it to know, while a subscription's creation block runs,
/// which subscription caused a nested subscribe, and why a disposal cascade started. Only
/// traced code paths touch it. The words are C thread-local storage
/// (`CSignalScopeThreadWords`), which Swift reaches inline.
struct ThreadLocalWord: Sendable {
    private let slot: signalscope_thread_word_slot

    init(_ slot: signalscope_thread_word_slot) {
        self.slot = slot
    }

    var value: UInt { UInt(signalscope_thread_word(slot)) }

    /// Runs `body` with the word set to `value`, restoring the previous value afterwards.
    func with<Result>(_ value: UInt, _ body: () throws -> Result) rethrows -> Result {
        let previous = signalscope_thread_word(slot)
        signalscope_set_thread_word(slot, value)
        defer { signalscope_set_thread_word(slot, previous) }
        return try body()
    }
}
