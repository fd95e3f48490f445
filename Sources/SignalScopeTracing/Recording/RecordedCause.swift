/// The event a thread's records are caused by, as a recorder numbers it: the sequence
/// number of its record, whether what follows runs inside its delivery or in an action
/// scheduled during it, and whether it runs in a cold signal's creation block (or an action
/// one scheduled), outside any delivery. Kept per thread and per recording (``ThreadBuffer/cause``), so that
/// several recordings at once each record their own causes.
struct RecordedCause: Equatable, Sendable {
    /// The cause as one word, as a delivery's token carries it to the delivery's end.
    let word: UInt64

    init(word: UInt64) { self.word = word }

    /// The event of record `sequence`, being delivered (``scheduled`` gives the same event as
    /// an action scheduled during it sees it).
    init(delivering sequence: UInt64) {
        word = sequence & Self.sequenceMask
    }

    /// Nothing in progress. (Computed, as are the masks below: a stored `static let` is a
    /// lazily made global, checked with `swift_once` on every record.)
    static var none: RecordedCause { RecordedCause(word: 0) }

    /// The same event, as an action scheduled during it sees it.
    var scheduled: RecordedCause { self == .none ? .none : RecordedCause(word: word | Self.scheduledBit) }

    /// The same, with a cold signal's creation block running: what the thread writes until
    /// its next delivery is that run's own work. (A delivery starts afresh: what an observer
    /// does is caused by the event it was given.)
    var inCreationBlock: RecordedCause { RecordedCause(word: word | Self.creationBlockBit) }

    /// The record prefix's cause fields for record `sequence` (docs/event-log.md): the
    /// kind, with the creation-block flag, and how many sequence numbers back the cause is;
    /// a zero kind and distance for none, or for a cause too far back to say. (Inlined: it
    /// runs for every record, and was a call of its own in the recorder's profile.)
    @inline(__always)
    func prefixFields(for sequence: UInt64) -> (kind: UInt8, distance: UInt32) {
        let cause = word & Self.sequenceMask
        let block = word & Self.creationBlockBit != 0 ? TraceCause.creationBlockFlag : 0
        guard cause != 0, cause < sequence, let distance = UInt32(exactly: sequence - cause) else { return (block, 0) }
        return ((word & Self.scheduledBit != 0 ? TraceCause.Kind.scheduled.rawValue : TraceCause.Kind.during.rawValue) | block, distance)
    }

    private static var scheduledBit: UInt64 { 1 << 63 }
    private static var creationBlockBit: UInt64 { 1 << 62 }
    private static var sequenceMask: UInt64 { (1 << 62) - 1 }
}
