/// A record kind whose payload is a subscription id and at most one byte more, so that a
/// thread's batch may store it in 16 bytes (``CompactRecord``) instead of a prefix and a
/// payload: the records of delivery (`next` without a value summary, `completed`) and of a
/// subscription's end, which are most of a log.
protocol CompactEventRecord: EventRecord {
    /// The record a compact one stands for; `nil` for a `detail` the kind does not have.
    init?(subscription: UInt64, detail: UInt8)
    /// The subscription and the one byte more the compact form stores, `nil` when this
    /// record says more than that (a `next` with a summary).
    var compactPayload: (subscription: UInt64, detail: UInt8)? { get }
}

/// A record kind whose payload is its subscription alone (`completed`, `observerReleased`).
protocol SubscriptionEventRecord: CompactEventRecord {
    var subscription: UInt64 { get set }
}

extension SubscriptionEventRecord {
    init?(subscription: UInt64, detail: UInt8) {
        guard detail == 0 else { return nil }
        self.init()
        self.subscription = subscription
    }

    var compactPayload: (subscription: UInt64, detail: UInt8)? { (subscription, 0) }
}

extension CompactEventRecord {
    static func compactEvent(subscription: UInt64, detail: UInt8, strings: LogStrings) -> TraceEvent? {
        Self(subscription: subscription, detail: detail)?.event(strings: strings)
    }
}

/// A record in its compact form (docs/event-log.md, "Batches and compact records"): 16 bytes
/// whose prefix fields are relative to the record its thread wrote before it, which the
/// batch holding it starts from. Written by the recording thread, so it is what a delivery
/// costs: a store per field where a full record zeroes and fills 48 bytes.
struct CompactRecord: RecordFields {
    /// Always ``EventLogFormat/compactForm``: a full record's first byte, the low byte of
    /// its size, is a multiple of 8.
    var form: UInt8 = EventLogFormat.compactForm
    var kind: UInt8 = 0
    /// As in ``RecordPrefix``: the cause's kind, with the creation-block flag.
    var causeKind: UInt8 = 0
    /// The byte of the payload after the subscription (a disposal's cause), else 0.
    var detail: UInt8 = 0
    /// The sequence number's distance from the thread's previous record's.
    var sequenceDelta: UInt16 = 0
    /// How many sequence numbers back the causing record is (0: none).
    var causeDistance: UInt16 = 0
    /// Nanoseconds since the thread's previous record.
    var timestampDelta: UInt32 = 0
    var subscription: UInt32 = 0

    init() {}

    /// `record` in the compact form, at `sequence` and `timestamp` after a thread's record at
    /// `previous`; `nil` when a field does not fit (a thread idle for seconds, a cause far
    /// back, a subscription id past 32 bits), which the full form then stores.
    @inline(__always) init?<Record: CompactEventRecord>(
        _ record: Record, sequence: UInt64, timestamp: UInt64, causeKind: UInt8, causeDistance: UInt32, after previous: ThreadPosition
    ) {
        guard let payload = record.compactPayload,
            let sequenceDelta = UInt16(exactly: sequence &- previous.sequence), sequence > previous.sequence,
            let timestampDelta = UInt32(exactly: timestamp &- previous.timestamp), timestamp >= previous.timestamp,
            let causeDistance = UInt16(exactly: causeDistance), let subscription = UInt32(exactly: payload.subscription)
        else { return nil }
        self.kind = Record.kind
        self.causeKind = causeKind
        self.detail = payload.detail
        self.sequenceDelta = sequenceDelta
        self.causeDistance = causeDistance
        self.timestampDelta = timestampDelta
        self.subscription = subscription
    }

    /// Writes the record's 16 bytes, as ``write(to:)`` does, in two stores where visiting the
    /// fields takes one per field and two loads: its stored properties lie in memory in the
    /// order and at the offsets ``fields(_:)`` visits them (the compact record's tests hold
    /// the two to the same bytes), and on a little-endian machine in the codec's byte order.
    @inline(__always) func store(to bytes: UnsafeMutableRawPointer) {
        #if _endian(little)
        bytes.storeBytes(of: self, as: CompactRecord.self)
        #else
        write(to: bytes)
        #endif
    }

    /// The record whose 16 bytes start at `bytes`, as ``store(to:)`` stores them: one load,
    /// where reading field by field checks each against the end (a call and 8 checks a
    /// record, most of what a log holds).
    @inline(__always) init(loadingFrom bytes: UnsafeRawPointer) {
        #if _endian(little)
        self = bytes.loadUnaligned(as: CompactRecord.self)
        #else
        self.init(payload: UnsafeRawBufferPointer(start: bytes, count: EventLogFormat.compactSize))!
        #endif
    }

    @inline(__always) mutating func fields(_ visitor: inout some RecordFieldVisitor) {
        visitor.visit(&form, "form")
        visitor.visit(&kind, "kind")
        visitor.visit(&causeKind, "causeKind")
        visitor.visit(&detail, "detail")
        visitor.visit(&sequenceDelta, "sequenceDelta")
        visitor.visit(&causeDistance, "cause")
        visitor.visit(&timestampDelta, "timestampDelta")
        visitor.visit(&subscription, "subscription")
    }

    /// The prefix of the full record this stands for, on `thread`, after a record at
    /// `previous`.
    func prefix(thread: UInt32, after previous: ThreadPosition) -> RecordPrefix {
        RecordPrefix(
            size: UInt32(EventLogFormat.compactSize), kind: kind, causeKind: causeKind, thread: thread,
            causeDistance: UInt32(causeDistance), sequence: previous.sequence &+ UInt64(sequenceDelta),
            timestamp: previous.timestamp &+ UInt64(timestampDelta))
    }
}

/// Where a thread's records had got to: its last record's sequence number and timestamp,
/// which its next compact record's are relative to.
struct ThreadPosition: Equatable {
    var sequence: UInt64 = 0
    var timestamp: UInt64 = 0
}
