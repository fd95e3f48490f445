/// Values kept for the life of the process, each under a number that names it: what holds
/// the number is plain words, copied and destroyed with no retain, release or switch.
///
/// For small vocabularies that programs make over and over from a few places (the text of
/// source locations an adapter knows, the roles closures play): each distinct value is kept
/// once and never freed, as profilers keep each distinct call stack they meet.
final class InternTable<Value: Hashable & Sendable>: Sendable {
    private struct State {
        var values: [Value] = []
        var numbers: [Value: UInt32] = [:]
    }

    private let state = LockedValue(State())

    /// The number of `value`, given it the first time it is met.
    func number(of value: Value) -> UInt32 {
        state.withLock { state in
            if let number = state.numbers[value] { return number }
            let number = UInt32(state.values.count)
            state.values.append(value)
            state.numbers[value] = number
            return number
        }
    }

    /// The value `number` names.
    func value(_ number: UInt32) -> Value {
        state.withLock { $0.values[Int(number)] }
    }
}
