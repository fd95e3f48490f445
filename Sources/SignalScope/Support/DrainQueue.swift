import DequeModule
import Synchronization

/// The two bits of an owner's atomic word that say who delivers and whether work waits:
/// the drainer's role is taken and given back with one compare-and-swap each when nothing
/// else happens, so the common path of a subscriber or a subject takes no lock. Owners
/// keep their own bits (a subscriber's grammar) above these.
///
/// The argument (`semantics.md`, Concurrency): work that finds a drainer is queued and
/// `pending` set in one step under the owner's lock; a drainer leaves only by swapping
/// exactly `draining` for `0`, which fails once anything else was set, and then takes the
/// lock, where it finds the queued work. A drainer that left first leaves the word `0`,
/// and the sender, retrying under the lock, becomes the drainer itself.
enum DrainFlags {
    static let draining = 1
    static let pending = 2

    /// Becomes the drainer if the word is `0`: nobody delivers, nothing waits, and the
    /// owner has set none of its own bits.
    static func enterIfIdle(_ flags: borrowing Atomic<Int>) -> Bool {
        flags.compareExchange(expected: 0, desired: draining, ordering: .acquiringAndReleasing).exchanged
    }

    /// Stops draining if nothing waits and the owner has set none of its bits; otherwise
    /// the drainer takes the lock and calls ``DrainQueue/next(flags:)``.
    static func leaveIfNothingWaits(_ flags: borrowing Atomic<Int>) -> Bool {
        flags.compareExchange(expected: draining, desired: 0, ordering: .acquiringAndReleasing).exchanged
    }
}

/// The work waiting for an owner's drainer. Every method runs under the owner's lock.
struct DrainQueue<Item> {
    /// What became of work offered to the queue.
    enum Entry {
        /// The caller is the drainer and performs it now.
        case drainer
        /// It waits for the drainer.
        case queued
        /// One of the bits it was refused for is set; the word as it stood.
        case refused(Int)
    }

    private var items = Deque<Item>()

    /// Offers work: the caller becomes the drainer, or `item()` is queued. In the same step
    /// `extra` bits are set, unless one of `refusing` is set already. With
    /// `replacingWaiting`, queued work is dropped first.
    mutating func enter(
        _ item: () -> Item, flags: borrowing Atomic<Int>, setting extra: Int = 0, refusing: Int = 0,
        replacingWaiting: Bool = false
    ) -> Entry {
        var current = flags.load(ordering: .acquiring)
        while true {
            if current & refusing != 0 { return .refused(current) }
            let isDelivering = current & DrainFlags.draining != 0
            let desired = current | extra | (isDelivering ? DrainFlags.pending : DrainFlags.draining)
            let (exchanged, found) = flags.compareExchange(
                expected: current, desired: desired, ordering: .acquiringAndReleasing)
            if exchanged {
                guard isDelivering else { return .drainer }
                if replacingWaiting { items.removeAll() }
                items.append(item())
                return .queued
            }
            current = found
        }
    }

    /// The next waiting item, or `nil`, after which the caller is no longer the drainer.
    mutating func next(flags: borrowing Atomic<Int>) -> Item? {
        if let item = items.popFirst() {
            if items.isEmpty { flags.bitwiseAnd(~DrainFlags.pending, ordering: .acquiringAndReleasing) }
            return item
        }
        flags.bitwiseAnd(~(DrainFlags.draining | DrainFlags.pending), ordering: .acquiringAndReleasing)
        return nil
    }
}
