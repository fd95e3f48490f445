import Foundation
import SignalScope
import SignalScopeTools
import Testing

@testable import SignalScopeTracing

/// Batches and compact records (docs/event-log.md, "Batches and compact records"): what the
/// recorder writes in 16 bytes reads back as the full record it stands for, and what does
/// not fit is written whole.
@Suite(.timeLimit(.minutes(10))) struct CompactRecordTests {
    /// A log recorded in memory, its records those of `body` (and of tests beside it that
    /// subscribe meanwhile, on other threads).
    private func record(values: Bool = false, bufferCapacity: Int = 1 << 18, _ body: () -> Void) throws -> [UInt8] {
        let sink = MemorySink()
        let recorder = try Recorder(sink: sink, recordsValues: values, bufferCapacity: bufferCapacity)
        Instrumentation.install(recorder)
        body()
        Instrumentation.uninstall(recorder)
        try recorder.finish()
        return sink.bytes
    }

    private func read(_ bytes: [UInt8]) throws -> Trace {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID()).sslog")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(bytes).write(to: url)
        return try Trace(contentsOf: url)
    }

    /// `record` whole, with its prefix, as `thread`'s record at `sequence` and `timestamp`
    /// (by default a microsecond a sequence number).
    private func whole<Record: EventRecord>(_ record: Record, thread: UInt32 = 1, sequence: UInt64, timestamp: UInt64? = nil) -> [UInt8] {
        let timestamp = timestamp ?? 1_000 * sequence
        let size = EventLogFormat.aligned(EventLogFormat.prefixSize + record.payloadSize)
        var bytes = [UInt8](repeating: 0, count: size)
        bytes.withUnsafeMutableBytes { raw in
            RecordPrefix(size: UInt32(size), kind: Record.kind, thread: thread, sequence: sequence, timestamp: timestamp).write(to: raw.baseAddress!)
            record.write(to: raw.baseAddress! + EventLogFormat.prefixSize)
        }
        return bytes
    }

    /// Every stored record of `bytes` with the batch holding it.
    private func stored(_ bytes: [UInt8]) -> [(record: StoredRecord, size: Int, batch: Int?)] {
        var found: [(StoredRecord, Int, Int?)] = []
        _ = bytes.withUnsafeBytes { buffer in
            RecordsInMemory.walk(UnsafeRawBufferPointer(rebasing: buffer[EventLogFormat.headerSize...])) { record, range, batch in
                found.append((record, range.count, batch))
            }
        }
        return found
    }

    @Test("Values delivered without summaries are 16-byte records that read back as next events with their causes, in order")
    func deliveriesAreCompact() throws {
        let subject = Subject<Int>()
        let mapped = subject.map { $0 * 2 }
        let bytes = try record {
            mapped.subscribeNext { _ in }.dispose()
            let disposable = mapped.subscribeNext { _ in }
            for value in 0..<1_000 { subject.sendNext(value) }
            subject.sendCompleted()
            disposable.dispose()
        }
        // Tests beside this one may record on other threads meanwhile (a thread's first record
        // is whole, for one): only this thread's records, and this test's subscriptions, count.
        let trace = try read(bytes)
        let thread = try #require(trace.records.first { record in
            if case .subscribe(_, let node, _, _, _) = record.event { node == mapped.id } else { false }
        }?.thread)
        let records = stored(bytes).filter { $0.record.prefix.thread == thread }
        let nexts = records.filter { $0.record.prefix.kind == NextRecord.kind }
        #expect(nexts.count == 2_000)
        #expect(nexts.allSatisfy { $0.size == 16 && $0.record.compact != nil && $0.batch != nil })
        #expect(records.contains { $0.record.prefix.kind == CompletedRecord.kind && $0.size == 16 })
        #expect(records.contains { $0.record.prefix.kind == DisposedRecord.kind && $0.size == 16 })

        #expect(!trace.warnings.contains { $0.contains("record") }, "\(trace.warnings)")
        #expect(trace.records.map(\.sequence) == trace.records.map(\.sequence).sorted())
        var nodes: [SubscriptionID: NodeID] = [:]
        for record in trace.records {
            if case .subscribe(let subscription, let node, _, _, _) = record.event { nodes[subscription] = node }
        }
        func delivered(to node: NodeID) -> [TraceRecord] {
            trace.records.filter { record in
                if case .next(let subscription, nil) = record.event { nodes[subscription] == node } else { false }
            }
        }
        let upstream = delivered(to: subject.id), downstream = delivered(to: mapped.id)
        #expect(upstream.count == 1_000 && downstream.count == 1_000)
        // Each value the subscriber gets is caused by map's, which the subject's send caused.
        let upstreamSequences = Set(upstream.map(\.sequence))
        #expect(downstream.allSatisfy { $0.cause?.kind == .during && upstreamSequences.contains($0.cause!.sequence) })
        #expect(zip(upstream, downstream).allSatisfy { $0.timestamp <= $1.timestamp })
    }

    // What makes the ring wrap (a whole record leaves its end 8 bytes short of a compact
    // one) or fill is up to the writer's timing; the test checks what must hold either way,
    // and fails when the out-of-line path loses a record.
    @Test("A thread's ring far smaller than what it records, whose records reach its end out of step with 16 bytes, keeps every value in 16 bytes and every record in order")
    func aSmallRingKeepsEveryRecord() throws {
        let subject = Subject<Int>()
        var delivered = 0
        let bytes = try record(bufferCapacity: 1 << 12) {
            for round in 0..<200 {
                // A subscription's records are whole (their sizes are multiples of 8, not
                // always of 16), then compact deliveries follow them.
                let disposable = subject.subscribeNext { _ in delivered += 1 }
                for value in 0..<(round % 7 + 20) { subject.sendNext(value) }
                disposable.dispose()
            }
        }
        // Ground truth: every value reached its subscriber.
        #expect(delivered == (0..<200).reduce(0) { $0 + $1 % 7 + 20 })
        let trace = try read(bytes)
        var ours: Set<SubscriptionID> = []
        for record in trace.records {
            if case .subscribe(let subscription, let node, _, _, _) = record.event, node == subject.id { ours.insert(subscription) }
        }
        let nexts = trace.records.filter { record in
            if case .next(let subscription, nil) = record.event { ours.contains(subscription) } else { false }
        }
        #expect(nexts.count == delivered)
        #expect(!trace.warnings.contains { $0.contains("record") }, "\(trace.warnings)")
        #expect(trace.records.map(\.sequence) == trace.records.map(\.sequence).sorted())
        let thread = try #require(nexts.first?.thread)
        let storedNexts = stored(bytes).filter { $0.record.prefix.thread == thread && $0.record.prefix.kind == NextRecord.kind }
        #expect(storedNexts.count == delivered && storedNexts.allSatisfy { $0.size == 16 })
    }

    @Test("A record whose fields do not fit 16 bytes has no compact form")
    func whatDoesNotFitHasNoCompactForm() {
        let previous = ThreadPosition(sequence: 100, timestamp: 5_000)
        func compact(_ subscription: UInt64 = 7, sequence: UInt64 = 101, timestamp: UInt64 = 5_100, distance: UInt32 = 1) -> CompactRecord? {
            CompactRecord(
                NextRecord(subscription: subscription, summary: nil), sequence: sequence, timestamp: timestamp, causeKind: 1,
                causeDistance: distance, after: previous)
        }
        #expect(compact() != nil)
        #expect(compact(1 << 32) == nil, "a subscription id past 32 bits")
        #expect(compact(sequence: 100 + (1 << 16)) == nil, "a thread whose records are 65,536 sequence numbers apart")
        #expect(compact(timestamp: 5_000 + (1 << 32)) == nil, "a thread idle for 4.3 seconds")
        #expect(compact(distance: 1 << 16) == nil, "a cause 65,536 records back")
        #expect(compact(sequence: 100) == nil && compact(timestamp: 4_999) == nil, "a position that does not move forward")
        #expect(
            CompactRecord(
                NextRecord(subscription: 7, summary: "1"), sequence: 101, timestamp: 5_100, causeKind: 0, causeDistance: 0,
                after: previous) == nil, "a value with its summary")
    }

    @Test("A compact record stored whole, as the recorder stores it, is the bytes its fields write, each field at its place")
    func storedWholeIsTheCodecsBytes() {
        // A different byte in every position, so that a field out of place or order shows.
        let previous = ThreadPosition(sequence: 0x1_0000, timestamp: 0x2000_0000)
        let record = CompactRecord(
            DisposedRecord(subscription: 0x1514_1312, cause: 0x03), sequence: 0x1_0000 + 0x0504, timestamp: 0x2000_0000 + 0x1110_0F0E,
            causeKind: 0x02, causeDistance: 0x0706, after: previous)
        guard let record else {
            Issue.record("the record has a compact form")
            return
        }
        var stored = [UInt8](repeating: 0xFF, count: EventLogFormat.compactSize)
        var written = stored
        stored.withUnsafeMutableBytes { record.store(to: $0.baseAddress!) }
        written.withUnsafeMutableBytes { record.write(to: $0.baseAddress!) }
        #expect(MemoryLayout<CompactRecord>.size == EventLogFormat.compactSize)
        #expect(stored == written)
        #expect(Array(written[1...]) == [DisposedRecord.kind, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0E, 0x0F, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15])
    }

    @Test("The recorder writes a thread's value whole when 65,536 records of another thread came between it and the thread's previous one, and it reads back in order")
    func aLongGapIsWrittenWhole() throws {
        let subject = Subject<Int>(), busy = Subject<Int>()
        let bytes = try record {
            let disposable = subject.subscribeNext { _ in }
            subject.sendNext(1)
            let done = DispatchSemaphore(value: 0)
            Thread {
                let other = busy.subscribeNext { _ in }
                for value in 0..<70_000 { busy.sendNext(value) }
                other.dispose()
                done.signal()
            }.start()
            done.wait()
            subject.sendNext(2)
            disposable.dispose()
        }
        let trace = try read(bytes)
        let ours = try #require(trace.records.first { record in
            if case .subscribe(_, let node, _, _, _) = record.event { node == subject.id } else { false }
        })
        let values = trace.records.filter { $0.event == .next(ours.event.subscription!, value: nil) }
        #expect(values.count == 2)
        #expect(values.map(\.sequence) == values.map(\.sequence).sorted())
        let gap = try #require(values.last).sequence - values[0].sequence
        #expect(gap > 70_000, "the other thread's values came between")
        // As stored: the first value compact, the second whole, at the sequence it read back as.
        let stored = stored(bytes).filter { $0.record.prefix.thread == ours.thread && $0.record.prefix.kind == NextRecord.kind }
        #expect(stored.map(\.record.prefix.sequence) == values.map(\.sequence))
        #expect(stored.map { $0.record.compact != nil } == [true, false])
    }

    @Test("A batch's records read back with their absolute fields, compact and whole mixed, on the batch's thread")
    func batchesReadBack() throws {
        // Records as a thread's buffer holds them: a whole one, compact ones after it, a
        // whole one whose gap is too long, and a compact one after that.
        var buffer: [[UInt8]] = []
        var position = ThreadPosition()
        func full<Record: EventRecord>(_ record: Record, sequence: UInt64, timestamp: UInt64) {
            buffer.append(whole(record, thread: 4, sequence: sequence, timestamp: timestamp))
            position = ThreadPosition(sequence: sequence, timestamp: timestamp)
        }
        func compact<Record: CompactEventRecord>(_ record: Record, sequence: UInt64, timestamp: UInt64, cause: UInt32 = 0) throws {
            let compact = try #require(
                CompactRecord(record, sequence: sequence, timestamp: timestamp, causeKind: cause == 0 ? 0 : 1, causeDistance: cause, after: position))
            var bytes = [UInt8](repeating: 0, count: EventLogFormat.compactSize)
            bytes.withUnsafeMutableBytes { compact.write(to: $0.baseAddress!) }
            buffer.append(bytes)
            position = ThreadPosition(sequence: sequence, timestamp: timestamp)
        }
        full(NextRecord(subscription: 9, summary: "a"), sequence: 10, timestamp: 1_000_000)
        try compact(NextRecord(subscription: 9, summary: nil), sequence: 12, timestamp: 1_000_250, cause: 2)
        try compact(DisposedRecord(subscription: 9, cause: DisposalCause.explicit.rawValue), sequence: 13, timestamp: 1_000_300)
        full(CompletedRecord(subscription: 9), sequence: 900_000, timestamp: 9_000_000_000)
        try compact(ObserverReleasedRecord(subscription: 9), sequence: 900_001, timestamp: 9_000_000_016, cause: 1)

        // Framed by the writer into batches that start where the thread had got to: one
        // batch, and the same records split across two.
        var log = EventLogFormat.header()
        var framing = BatchFraming(thread: 4, position: ThreadPosition())
        for record in buffer { record.withUnsafeBytes { framing.append($0, to: &log) } }
        framing.close(&log)
        var split = EventLogFormat.header()
        framing = BatchFraming(thread: 4, position: ThreadPosition())
        for (index, record) in buffer.enumerated() {
            if index == 2 { framing.close(&split) }
            record.withUnsafeBytes { framing.append($0, to: &split) }
        }
        framing.close(&split)
        #expect(framing.position == position)

        for bytes in [log, split] {
            let trace = try read(bytes)
            #expect(trace.warnings.count == 1 && trace.warnings[0].contains("has no end record"), "\(trace.warnings)")
            let subscription = SubscriptionID(rawValue: 9)
            #expect(trace.records.map(\.sequence) == [10, 12, 13, 900_000, 900_001])
            #expect(trace.records.map(\.timestamp) == [1_000_000, 1_000_250, 1_000_300, 9_000_000_000, 9_000_000_016])
            #expect(trace.records.allSatisfy { $0.thread == 4 })
            #expect(
                trace.records.map(\.event) == [
                    .next(subscription, value: "a"), .next(subscription, value: nil), .disposed(subscription, cause: .explicit),
                    .completed(subscription), .observerReleased(subscription),
                ])
            #expect(trace.records.map(\.cause) == [nil, TraceCause(sequence: 10, kind: .during), nil, nil, TraceCause(sequence: 900_000, kind: .during)])
        }
        #expect(stored(split).filter { $0.batch == nil }.count == 2)
    }

    @Test("Two threads' compact records, over many batches and more than a window of the file, read back in sequence order with their absolute fields; whole records and unknown kinds among them")
    func manyBatchesReadBack() throws {
        // Each thread's records in blocks of 50 sequence numbers, its batches closed every 257
        // records and written alternately, so that the reader switches threads, batches and
        // windows (64 KiB) in the middle of runs of compact records.
        var buffers: [UInt32: [[UInt8]]] = [1: [], 2: []]
        var positions: [UInt32: ThreadPosition] = [1: ThreadPosition(), 2: ThreadPosition()]
        var expected: [(sequence: UInt64, thread: UInt32, event: TraceEvent)] = []
        for sequence in UInt64(1)...30_000 {
            let thread: UInt32 = (sequence / 50) % 2 == 0 ? 1 : 2
            let timestamp = 1_000 * sequence
            let subscription = sequence % 7 + 1
            if sequence % 333 == 0 {
                buffers[thread]!.append(whole(CompletedRecord(subscription: subscription), thread: thread, sequence: sequence, timestamp: timestamp))
                expected.append((sequence, thread, .completed(SubscriptionID(rawValue: subscription))))
            } else {
                var compact = try #require(
                    CompactRecord(
                        NextRecord(subscription: subscription, summary: nil), sequence: sequence, timestamp: timestamp, causeKind: 0,
                        causeDistance: 0, after: positions[thread]!))
                // Every 1,000th of a kind this reader does not know: skipped, silently.
                if sequence % 1_000 == 0 { compact.kind = 200 } else { expected.append((sequence, thread, .next(SubscriptionID(rawValue: subscription), value: nil))) }
                var bytes = [UInt8](repeating: 0, count: EventLogFormat.compactSize)
                bytes.withUnsafeMutableBytes { compact.write(to: $0.baseAddress!) }
                buffers[thread]!.append(bytes)
            }
            positions[thread] = ThreadPosition(sequence: sequence, timestamp: timestamp)
        }
        var log = EventLogFormat.header()
        var framings: [UInt32: BatchFraming] = [1: BatchFraming(thread: 1, position: ThreadPosition()), 2: BatchFraming(thread: 2, position: ThreadPosition())]
        for start in stride(from: 0, to: max(buffers[1]!.count, buffers[2]!.count), by: 257) {
            for thread: UInt32 in [1, 2] {
                for record in buffers[thread]!.dropFirst(start).prefix(257) { record.withUnsafeBytes { framings[thread]!.append($0, to: &log) } }
                framings[thread]!.close(&log)
            }
        }
        #expect(log.count > 4 * (64 << 10))

        let trace = try read(log)
        #expect(trace.warnings.count == 1 && trace.warnings[0].contains("has no end record"), "\(trace.warnings)")
        #expect(trace.records.count == expected.count)
        // The first record that differs, if any, rather than thousands of values.
        let differing = zip(trace.records, expected).first { record, expected in
            (record.sequence, record.timestamp, record.thread, record.event) != (expected.sequence, 1_000 * expected.sequence, expected.thread, expected.event)
        }
        #expect(differing == nil, "\(String(describing: differing))")
    }

    @Test("A compact record decodes exactly for the kinds that conform to the compact-record protocol, as the subscription it names")
    func compactEventsFollowTheConformance() {
        let strings = LogStrings()
        for type in EventRecords.all {
            let decoded = (0...UInt8.max).compactMap { type.compactEvent(subscription: 5, detail: $0, strings: strings) }
            if type is any CompactEventRecord.Type {
                #expect(!decoded.isEmpty && decoded.allSatisfy { $0.subscription == SubscriptionID(rawValue: 5) }, "\(type.name)")
            } else {
                #expect(decoded.isEmpty, "\(type.name)")
            }
        }
    }

    @Test("A compact record of a kind that has no compact form is skipped with a warning; one of an unknown kind, silently")
    func compactKindsAreChecked() throws {
        var log = EventLogFormat.header()
        var framing = BatchFraming(thread: 1, position: ThreadPosition())
        for kind in [NodeNamedRecord.kind, 200] {
            var record = CompactRecord()
            record.kind = kind
            record.sequenceDelta = 1
            var bytes = [UInt8](repeating: 0, count: EventLogFormat.compactSize)
            bytes.withUnsafeMutableBytes { record.write(to: $0.baseAddress!) }
            bytes.withUnsafeBytes { framing.append($0, to: &log) }
        }
        framing.close(&log)
        let trace = try read(log)
        #expect(trace.records.isEmpty)
        let offset = EventLogFormat.headerSize + EventLogFormat.prefixSize
        #expect(trace.warnings.first?.hasSuffix("record at byte offset \(offset) is malformed and was skipped") == true, "\(trace.warnings)")
        #expect(trace.warnings.count == 2, "and the missing end record: \(trace.warnings)")
        #expect(trace.skippedRecords, "the malformed record is missing from what the trace says")
    }

    @Test("A damaged record loses the rest of its batch only, and a trace that ends cleanly after it is still judged incomplete: what the skipped records said is missing")
    func aDamagedBatchMakesTheAnalysisIncomplete() throws {
        var damaged = whole(CompletedRecord(subscription: 3), sequence: 2)
        damaged.replaceSubrange(0..<4, with: [3, 0, 0, 0])
        var log = EventLogFormat.header()
        var framing = BatchFraming(thread: 1, position: ThreadPosition())
        for record in [whole(NextRecord(subscription: 3, summary: nil), sequence: 1), damaged, whole(NextRecord(subscription: 3, summary: nil), sequence: 3)] {
            record.withUnsafeBytes { framing.append($0, to: &log) }
        }
        framing.close(&log)
        framing = BatchFraming(thread: 1, position: ThreadPosition(sequence: 3, timestamp: 3_000))
        whole(EndRecord(recordCount: 5), sequence: 4).withUnsafeBytes { framing.append($0, to: &log) }
        framing.close(&log)

        let trace = try read(log)
        #expect(trace.records.map(\.event) == [.next(SubscriptionID(rawValue: 3), value: nil), .end(recordCount: 5)])
        #expect(trace.hasEnd)
        #expect(trace.warnings.count == 1 && trace.warnings[0].hasSuffix("(size 3); the rest of its batch was skipped"), "\(trace.warnings)")
        #expect(trace.skippedRecords)
        #expect(trace.analyze().limitations.contains { $0.hasPrefix("part of the trace could not be read") })

        var sound = EventLogFormat.header()
        framing = BatchFraming(thread: 1, position: ThreadPosition())
        whole(EndRecord(recordCount: 1), sequence: 1).withUnsafeBytes { framing.append($0, to: &sound) }
        framing.close(&sound)
        #expect(try !read(sound).skippedRecords)
    }

    @Test("A batch holds at most the largest record's size: the writer starts another")
    func batchesAreBounded() {
        var log: [UInt8] = []
        var framing = BatchFraming(thread: 1, position: ThreadPosition())
        let record = [UInt8](repeating: 0, count: 64 << 10)
        for _ in 0..<40 { record.withUnsafeBytes { framing.append($0, to: &log) } }
        framing.close(&log)
        var sizes: [Int] = []
        var offset = 0
        while offset < log.count {
            let size = Int(log[offset]) | Int(log[offset + 1]) << 8 | Int(log[offset + 2]) << 16 | Int(log[offset + 3]) << 24
            sizes.append(size)
            offset += size
        }
        #expect(sizes.count == 3 && sizes.allSatisfy { $0 <= EventLogFormat.maximumRecordSize }, "\(sizes)")
        #expect(offset == log.count)
    }

    @Test("A format 2.0 log, whose records are all whole and outside batches, still reads")
    func formatTwoReads() throws {
        var log = EventLogFormat.header()
        log[8] = 2
        var sequence: UInt64 = 1
        func append<Record: EventRecord>(_ record: Record) {
            log += whole(record, sequence: sequence)
            sequence += 1
        }
        append(NextRecord(subscription: 3, summary: nil))
        append(CompletedRecord(subscription: 3))
        append(EndRecord(recordCount: 3))
        let trace = try read(log)
        #expect(trace.warnings.isEmpty)
        #expect(trace.records.map(\.event) == [.next(SubscriptionID(rawValue: 3), value: nil), .completed(SubscriptionID(rawValue: 3)), .end(recordCount: 3)])
    }

    @Test("A log from before format 3.2 with a cold signal says that repeated work cannot be told in it; one without, or a 3.2 log, says nothing")
    func beforeCreationBlockFlags() throws {
        func log(minor: UInt8, traits: NodeTraits) -> [UInt8] {
            var log = EventLogFormat.header()
            log[10] = minor
            var node = NodeRecord()
            node.node = 1
            node.traits = traits.rawValue
            log += whole(node, sequence: 1)
            log += whole(EndRecord(recordCount: 2), sequence: 2)
            return log
        }
        let old = try read(log(minor: 1, traits: .cold))
        #expect(old.warnings.count == 1 && old.warnings[0].contains("recorded in event log format 3.1, before 3.2")
            && old.warnings[0].contains("repeated-cold-subscription"), "\(old.warnings)")
        #expect(try read(log(minor: 1, traits: .hot)).warnings.isEmpty)
        #expect(try read(log(minor: 2, traits: .cold)).warnings.isEmpty)
    }
}
