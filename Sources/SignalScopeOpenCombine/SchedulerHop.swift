#if OpenCombineAdapter
import SignalScope

/// What an operator that delivers on a scheduler (`receive(on:)`, `delay`, `debounce`) was
/// given and has not delivered yet, as the causes to carry across its hop: OpenCombine reports
/// what goes into the operator's own subscriber and what comes out to its downstream, on
/// another thread and later, and nothing in between. Each event going in leaves what
/// ``SignalInstrumentation/actionScheduled()`` carries; each event coming out takes the one
/// it was scheduled by, matched by the operator's order. An event that cannot be matched
/// takes none: it is shown without a cause rather than with a wrong one.
struct SchedulerHop {
    /// How what comes out of an operator follows from what went in.
    enum Order {
        /// Every event goes out once, in the order it came (`receive(on:)`, `delay`): true on
        /// a serial scheduler, as Combine's contract (a subscriber receives serially) wants.
        case inOrder
        /// A value goes out only if no other came after it before it was due (`debounce`);
        /// a completion goes out as it came.
        case latest
    }

    let order: Order
    private var pending: [(isCompletion: Bool, scheduled: (any Sendable)?)] = []

    init(order: Order) {
        self.order = order
    }

    /// An event went into the operator, carrying `scheduled`.
    mutating func entered(isCompletion: Bool, scheduled: (any Sendable)?) {
        // A value replaces the one before it, which will never go out.
        if order == .latest, !isCompletion { pending.removeAll { !$0.isCompletion } }
        pending.append((isCompletion, scheduled))
    }

    /// An event comes out of the operator: what the event it was scheduled by carried.
    mutating func leaving(isCompletion: Bool) -> (any Sendable)? {
        switch order {
        case .inOrder:
            guard pending.first?.isCompletion == isCompletion else { return nil }
            return pending.removeFirst().scheduled
        case .latest:
            guard let index = pending.firstIndex(where: { $0.isCompletion == isCompletion }) else { return nil }
            return pending.remove(at: index).scheduled
        }
    }
}
#endif
