import DequeModule

/// Serializes work without holding a lock while that work runs.
///
/// Kept inside a `Mutex` by its owner. The first caller to ``enter(_:)`` becomes the
/// drainer: it performs its item, then keeps taking items with ``next()`` until none are
/// left. Anyone arriving meanwhile, another thread or a re-entrant call from inside the
/// drainer's own callback, only queues its item and returns. So items are handled one at a
/// time, in arrival order, and a re-entrant send never deadlocks: it is delivered right
/// after the callback that caused it returns.
struct Trampoline<Item> {
    private var pending = Deque<Item>()
    private(set) var isDraining = false

    /// Offers `item`. Returns `true` when the caller is now the drainer and must handle
    /// `item` itself; `false` when `item` was queued for the current drainer. `item` is
    /// evaluated only when it has to be queued.
    mutating func enter(_ item: @autoclosure () -> Item) -> Bool {
        if isDraining {
            pending.append(item())
            return false
        }
        isDraining = true
        return true
    }

    /// The drainer's next item, or `nil`, after which the caller is no longer the drainer.
    mutating func next() -> Item? {
        if let item = pending.popFirst() { return item }
        isDraining = false
        return nil
    }

    /// Drops every queued item (used when a subscription is disposed).
    mutating func discardPending() {
        pending.removeAll()
    }
}
