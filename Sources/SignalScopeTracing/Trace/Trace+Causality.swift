extension Trace {
    /// The record with sequence number `sequence`, if the trace kept it (records are in
    /// sequence order, so this is a binary search).
    public func record(withSequence sequence: UInt64) -> TraceRecord? {
        var low = records.startIndex, high = records.endIndex
        while low < high {
            let middle = (low + high) / 2
            if records[middle].sequence < sequence { low = middle + 1 } else { high = middle }
        }
        return low < records.endIndex && records[low].sequence == sequence ? records[low] : nil
    }

    /// What led to `record`: its cause, that record's cause, and so on back to a record
    /// nothing recorded caused (user code sending to a subject, a creation block, a timer
    /// firing, a subscription made outside any delivery), nearest first. The chain stops
    /// early where a cause is missing from the trace (a record the reader skipped).
    public func causes(of record: TraceRecord) -> [TraceRecord] {
        var chain: [TraceRecord] = []
        var current = record
        // Causes point strictly backwards, so this ends; the bound only guards a damaged log.
        while let cause = current.cause, cause.sequence < current.sequence, chain.count < 10_000,
            let earlier = self.record(withSequence: cause.sequence)
        {
            chain.append(earlier)
            current = earlier
        }
        return chain
    }
}
