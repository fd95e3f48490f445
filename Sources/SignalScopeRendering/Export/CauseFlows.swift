import SignalScopeTracing

/// Every recorded cause as one flow arrow, for an exporter that streams: one pass over the
/// records counts how many records each record caused (``count(_:)``), so that the export's
/// pass knows, when it writes a causing event, every arrow that will leave it, and keeps a
/// cause only until its last effect is written.
///
/// The counts take a byte per record (more only for a record that caused 255 or more), in
/// pages of 256 allocated only where causes are: a 10-million-record trace takes about
/// 10 MB, and a log whose sequence numbers are sparse a page per cause at most.
/// The causes waiting for effects are those whose effects are still to come (a scheduled
/// action's, mostly): a few, whatever the trace's size.
struct CauseFlows {
    private static let pageBits = 8
    private var pages: [UInt64: [UInt8]] = [:]
    private var large: [UInt64: Int] = [:]
    /// Causes already written whose effects are still to come: how many are left, and what
    /// the exporter needs to draw an arrow from them.
    private var waiting: [UInt64: (left: Int, next: UInt64, origin: Origin)] = [:]
    /// The next arrow's id: arrows are numbered in the order their causes are drawn, so ids
    /// stay unique and small (a JSON viewer reads numbers as doubles).
    private var nextFlowID: UInt64 = 1

    /// Where a causing event was drawn.
    struct Origin {
        let thread: UInt32
        let time: UInt64
    }

    /// The first pass: counts `record` as one more effect of its cause.
    mutating func count(_ record: TraceRecord) {
        guard let cause = record.cause?.sequence else { return }
        let page = cause >> UInt64(Self.pageBits), slot = Int(cause & (1 << UInt64(Self.pageBits) - 1))
        let counted = pages[page, default: Array(repeating: 0, count: 1 << Self.pageBits)][slot]
        if counted == .max {
            large[cause, default: Int(UInt8.max)] += 1
        } else {
            pages[page, default: Array(repeating: 0, count: 1 << Self.pageBits)][slot] = counted + 1
        }
    }

    /// How many records `sequence` caused, as the first pass counted them.
    func effects(of sequence: UInt64) -> Int {
        if let count = large[sequence] { return count }
        guard let page = pages[sequence >> UInt64(Self.pageBits)] else { return 0 }
        return Int(page[Int(sequence & (1 << UInt64(Self.pageBits) - 1))])
    }

    /// The flow ids of the arrows leaving the event of record `sequence`, which was drawn at
    /// `origin`: one per effect, in the order the effects come (empty when it caused nothing).
    mutating func leaving(_ sequence: UInt64, at origin: Origin) -> [UInt64] {
        let count = effects(of: sequence)
        guard count > 0 else { return [] }
        let first = nextFlowID
        nextFlowID += UInt64(count)
        waiting[sequence] = (count, first, origin)
        return Array(first..<nextFlowID)
    }

    /// The arrow that ends at `record`'s event: its flow id and where its cause was drawn;
    /// `nil` when it has no cause, or its cause is not in the trace.
    mutating func arriving(at record: TraceRecord) -> (id: UInt64, from: Origin)? {
        guard let cause = record.cause?.sequence, var entry = waiting[cause] else { return nil }
        let id = entry.next
        entry.next += 1
        entry.left -= 1
        waiting[cause] = entry.left > 0 ? entry : nil
        return (id, entry.origin)
    }

}
