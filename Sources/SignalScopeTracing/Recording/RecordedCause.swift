/// The event a thread's records are caused by, as a recorder numbers it: the sequence
/// number of its record, and whether what follows runs inside its delivery or in an action
/// scheduled during it. Kept per thread and per recording (``ThreadBuffer/cause``), so that
/// several recordings at once each record their own causes.
struct RecordedCause: Equatable, Sendable {
    private let word: UInt64

    private init(word: UInt64) { self.word = word }

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

    /// The record prefix's cause fields for record `sequence` (docs/event-log.md): the
    /// kind, and how many sequence numbers back the cause is; zeros for none, or for a
    /// cause too far back to say.
    func prefixFields(for sequence: UInt64) -> (kind: UInt8, distance: UInt32) {
        let cause = word & Self.sequenceMask
        guard cause != 0, cause < sequence, let distance = UInt32(exactly: sequence - cause) else { return (0, 0) }
        return (word & Self.scheduledBit != 0 ? TraceCause.Kind.scheduled.rawValue : TraceCause.Kind.during.rawValue, distance)
    }

    private static var scheduledBit: UInt64 { 1 << 63 }
    private static var sequenceMask: UInt64 { (1 << 63) - 1 }
}
