import Glibc
import Foundation
@_spi(Locking) import SignalScope
import Synchronization
import CTracingSupport
import SignalScopeHeap

/// Writes everything the runtime reports into an event log: the tracer's
/// `SignalInstrumentation`.
///
/// The per-event path (`next`, `completed`, disposal, ...) takes no lock another thread
/// contends on, allocates nothing and formats no text unless value summaries are on: it
/// writes a fixed-size record into the calling thread's ring buffer, which a background
/// writer drains.
final class Recorder: SignalInstrumentation, @unchecked Sendable {
    /// Whether `next` records carry a value summary.
    let recordsValues: Bool
    private let writer: LogWriter
    private let strings = StringTable()
    /// Sites known by their code, by their return addresses, named when the recording ends.
    private let codeSites = LockedValue<[[UInt]: UInt32]>([:])
    private let live = LiveEntities()
    private let sequence = Atomic<UInt64>(0)
    /// Active until the recording finishes; subscriptions read it before every value.
    private let active = InstrumentationActivity()
    let identity: UInt64
    private let threadCount = Atomic<UInt32>(0)
    private let bufferCapacity: Int
    private let heapLimits: TraceHeap.Limits
    /// Whether this recording is about some code only (``RecordingScope/code``), not the
    /// whole process: then it watches only that code (``watchesCurrentCode()``).
    private let recordsCode: Bool
    /// For a recording of some code: the tasks that ran it (an `async` body's task, and
    /// those it started that made signals), whose allocations are its own.
    private let scopeTasks = ScopeTasks()
    /// Whether this recording still holds the allocation table open.
    private let notesAllocations = Atomic<Bool>(false)
    /// When this recording started, by the allocation table's clock (0: the table could not
    /// be used): the objects allocated since are what the closing walk starts from.
    private let allocationStart: UInt64

    /// The objects the program said should be freed by a deadline.
    private let watchlist = Watchlist()
    /// Where a retained object is announced while the program runs (a file recording's
    /// standard error line), if anywhere.
    private let announce: (@Sendable (String) -> Void)?

    private static let recordings = Atomic<UInt64>(0)
    /// The recordings that have finished, so threads can drop their buffers.
    private static let finishedRecordings = LockedValue<Set<UInt64>>([])

    init(
        sink: any LogSink, recordsValues: Bool, heapLimits: TraceHeap.Limits = .standard, scope: RecordingScope = .process,
        bufferCapacity: Int = 1 << 18, announce: (@Sendable (String) -> Void)? = nil
    ) throws {
        self.announce = announce
        self.recordsValues = recordsValues
        recordsCode = scope == .code
        // A buffer's records must fit a batch, which is at most a record's largest size.
        precondition(bufferCapacity <= EventLogFormat.maximumRecordSize, "a thread buffer holds at most 1 MiB")
        self.bufferCapacity = bufferCapacity
        self.heapLimits = heapLimits
        identity = Self.recordings.add(1, ordering: .relaxed).newValue
        writer = try LogWriter(sink: sink)
        allocationStart = signalscope_allocations_start(Unmanaged.passUnretained(writer).toOpaque(), recordsCode)
        notesAllocations.store(allocationStart != 0, ordering: .releasing)
    }

    deinit {
        stopNotingAllocations()
    }

    /// Lets go of the allocation table (once): when the recording finishes, or is given up.
    func stopNotingAllocations() {
        if notesAllocations.exchange(false, ordering: .acquiringAndReleasing) { signalscope_allocations_stop(allocationStart, recordsCode) }
    }

    private var isActive: Bool { active.isActive }

    /// Whether the code running now is this recording's to watch (rule I10): everything, for
    /// a recording of the whole process; for a recording of some code, that code under its
    /// task-local binding (whose task is remembered, so that what it allocates is attributed
    /// to it), or whatever runs during a delivery or an action of what it watches.
    func watchesCurrentCode() -> Bool {
        guard recordsCode else { return true }
        guard isActive else { return false }
        if RecordedCode.recordings.contains(identity) {
            scopeTasks.add(UInt(signalscope_current_task()))
            return true
        }
        return CodeScopeMark.current == identity
    }

    /// Notes the task running now as one that runs the recorded code (an `async` body's).
    func noteRecordedTask() {
        scopeTasks.add(UInt(signalscope_current_task()))
    }

    /// Stops recording, writes the snapshot and the closing record, and flushes everything.
    func finish() throws {
        guard isActive else { return }
        watchlist.close()
        appendSnapshot()
        appendCodeSites()
        stopNotingAllocations()
        let count = sequence.load(ordering: .acquiring) + 1
        append(EndRecord(recordCount: count))
        active.stop()
        live.clear()
        Self.finishedRecordings.withLock { _ = $0.insert(identity) }
        try writer.finish()
    }

    // MARK: SignalInstrumentation

    var activity: InstrumentationActivity? { active }

    func nodeCreated(_ node: NodeDescriptor, object: AnyObject) {
        guard isActive else { return }
        live.node(node.id, object, reportsDeinit: node.reportsDeinit)
        let name = string(node.name)
        let site = site(node.site)
        append(
            NodeRecord(
                node: node.id.rawValue, nodeKind: node.kind.code, traits: node.traits.rawValue, name: name, file: site.file,
                function: site.function, line: site.line,
                parents: node.parents.map { NodeRecord.Parent(parent: $0.parent.rawValue, edgeKind: $0.kind.code) }))
        // What an adapter said the node is in its library's words.
        if let library = node.library {
            append(LibraryTypeRecord(node: node.id, typeName: string(library.name), role: string(library.role.rawValue)))
        }
    }

    // Not only while recording: an entry made while recording must leave the table before
    // its object's memory is freed, however late.
    func nodeDeinitialized(_ node: NodeID) {
        live.nodeDeinitialized(node)
    }

    func subscriptionDeinitialized(_ subscription: SubscriptionID) {
        live.ended(subscription)
    }

    func nodeNamed(_ node: NodeID, name: String) {
        guard isActive else { return }
        let name = string(name)
        append(NodeNamedRecord(node: node.rawValue, name: name))
    }

    func edgeAdded(_ edge: NodeEdge, to node: NodeID) {
        append(EdgeRecord(node: node.rawValue, parent: edge.parent.rawValue, edgeKind: edge.kind.code))
    }

    func subscribed(_ subscription: SubscriptionDescriptor, object: AnyObject) {
        guard isActive else { return }
        live.subscription(subscription.id, object, reportsDeinit: subscription.reportsDeinit)
        let site = site(subscription.site)
        append(
            SubscribeRecord(
                subscription: subscription.id.rawValue, node: subscription.node.rawValue,
                parentSubscription: subscription.parent?.rawValue ?? 0, file: site.file, function: site.function,
                line: site.line, bindingTarget: subscription.bindingTarget?.rawValue ?? 0))
        if let subscriber = subscription.subscriber {
            append(LibraryTypeRecord(subscription: subscription.id, typeName: string(subscriber.name), role: string(subscriber.role.rawValue)))
        }
    }

    func observerStored(_ subscription: SubscriptionID, closures: ObserverClosures) {
        guard isActive else { return }
        let handlers = ObserverHandlers(closures)
        append(ObserverStoredRecord(subscription: subscription.rawValue, handlers: handlers.rawValue))
        // What the closures capture is not scanned here, on the program's thread: the
        // closing heap walk finds it for every subscription still alive, which is all a
        // leak can be made of (TraceHeap.observerCaptures(of:) reads them from it).
        live.storedObserver(subscription, closures: closures)
    }

    func closuresKept(_ closures: [KeptClosure], by owner: ClosureOwner, object: AnyObject) {
        guard isActive else { return }
        live.closuresKept(closures, by: owner, object: object)
    }

    func observerReleased(_ subscription: SubscriptionID) {
        // Subscriptions outlive a stopped recording and still tell it they end.
        guard isActive else { return }
        live.releasedObserver(subscription)
        appendCompactly(ObserverReleasedRecord(subscription: subscription.rawValue))
    }

    // A delivery is a beginning and an end. The runtime calls the closure forms, which run it
    // between the two with what the beginning gave back held in two plain words (``Began``);
    // a library reporting will/did pairs gets those words in a ``DeliveryToken``. (The seam's
    // default closure forms would go through the token, an optional object included, and
    // through the witness table, for every event.)

    func nextDelivered<Value>(_ subscription: SubscriptionID, value: Value, deliver: () -> Void) {
        let began = beginNext(subscription, value: value)
        deliver()
        end(began)
    }

    func errorDelivered(_ subscription: SubscriptionID, error: any Error, deliver: () -> Void) {
        let began = beginError(subscription, error: error)
        deliver()
        end(began)
    }

    func completedDelivered(_ subscription: SubscriptionID, deliver: () -> Void) {
        let began = beginCompleted(subscription)
        deliver()
        end(began)
    }

    func nextWillBeDelivered<Value>(_ subscription: SubscriptionID, value: Value) -> DeliveryToken {
        beginNext(subscription, value: value).token
    }

    func errorWillBeDelivered(_ subscription: SubscriptionID, error: any Error) -> DeliveryToken {
        beginError(subscription, error: error).token
    }

    func completedWillBeDelivered(_ subscription: SubscriptionID) -> DeliveryToken {
        beginCompleted(subscription).token
    }

    func deliveryEnded(_ token: DeliveryToken) {
        end(Began(restore: token.first, mark: token.second))
    }

    /// What a delivery's end gives back: the thread's cause before it in `restore` (its word
    /// plus 2; 1: nothing was recorded, nothing to give back; 0: nothing began), and the
    /// recorded-code mark before it.
    private struct Began {
        let restore: UInt64
        let mark: UInt64
        /// The thread's buffer the beginning wrote to, unretained: the closure forms' end gives
        /// the cause back there without finding the buffer a second time. `nil` from a token,
        /// whose end finds it. While the recording is active the thread keeps it (only a
        /// finished recording's buffers are dropped, and a recording stops before it counts
        /// as finished), and `end` checks that first.
        var buffer: Unmanaged<ThreadBuffer>? = nil

        static var none: Began { Began(restore: 0, mark: 0) }

        var token: DeliveryToken { DeliveryToken(first: restore, second: mark) }
    }

    @inline(__always)
    private func beginNext<Value>(_ subscription: SubscriptionID, value: Value) -> Began {
        // Subscriptions outlive a stopped recording and keep calling it, once per value.
        guard isActive else { return .none }
        let record = NextRecord(subscription: subscription.rawValue, summary: recordsValues ? summary(value) : nil)
        return beginDelivery(after: appendCompactlyWhileActive(record, becomesCause: true))
    }

    private func beginError(_ subscription: SubscriptionID, error: any Error) -> Began {
        guard isActive else { return .none }
        return beginDelivery(after: append(ErrorRecord(subscription: subscription.rawValue, description: summary(error)), becomesCause: true))
    }

    private func beginCompleted(_ subscription: SubscriptionID) -> Began {
        beginDelivery(after: appendCompactly(CompletedRecord(subscription: subscription.rawValue), becomesCause: true))
    }

    /// Begins a delivery whose record has just become its thread's cause (`previous`: the
    /// cause before it, `nil` when nothing was recorded): for a recording of some code, what
    /// the thread makes and allocates until its end is the recorded code's.
    private func beginDelivery(after previous: CauseGivenUp?) -> Began {
        let mark = recordsCode ? CodeScopeMark.enter(identity) : 0
        return Began(restore: previous.map { $0.cause.word &+ 2 } ?? 1, mark: mark, buffer: previous?.buffer)
    }

    @inline(__always)
    private func end(_ began: Began) {
        guard began.restore != 0 else { return }
        if recordsCode { CodeScopeMark.enter(began.mark) }
        // The buffer comes unretained from the beginning (retaining it cost a retain and a
        // release per event). The observer may have stopped this recording meanwhile: then
        // there is nothing to give back, and the buffer may be gone.
        guard began.restore > 1, isActive else { return }
        let previous = RecordedCause(word: began.restore - 2)
        if let buffer = began.buffer {
            buffer._withUnsafeGuaranteedRef { $0.cause = previous }
        } else {
            withCurrentBuffer { $0.cause = previous }
        }
    }

    func actionScheduled() -> (any Sendable)? {
        guard isActive else { return nil }
        let cause = withCurrentBuffer { $0.cause }
        // A recording of some code is asked only by code it watches: the action is that
        // code's, wherever it runs, even when no event caused it.
        guard cause != .none || recordsCode else { return nil }
        return ScheduledBy(recording: identity, cause: cause.scheduled)
    }

    func scheduledActionRuns(_ scheduled: (any Sendable)?, run: () -> Void) {
        let began = beginScheduledAction(scheduled)
        run()
        end(began)
    }

    func scheduledActionWillRun(_ scheduled: (any Sendable)?) -> DeliveryToken {
        beginScheduledAction(scheduled).token
    }

    func scheduledActionEnded(_ token: DeliveryToken) {
        end(Began(restore: token.first, mark: token.second))
    }

    func creationBlockRuns(for subscription: SubscriptionID, run: () -> Void) {
        let began = beginCreationBlock()
        run()
        end(began)
    }

    func creationBlockWillRun(for subscription: SubscriptionID) -> DeliveryToken {
        beginCreationBlock().token
    }

    func creationBlockEnded(_ token: DeliveryToken) {
        end(Began(restore: token.first, mark: token.second))
    }

    /// Begins a creation block's run: what the thread sends until its end is marked as the
    /// run's work, with the same cause as before.
    private func beginCreationBlock() -> Began {
        guard isActive else { return .none }
        let previous = withCurrentBuffer { buffer in
            defer { buffer.cause = buffer.cause.inCreationBlock }
            return CauseGivenUp(cause: buffer.cause, buffer: .passUnretained(buffer))
        }
        return beginDelivery(after: previous)
    }

    func virtualTimeReached(_ now: Date) {
        let nanoseconds = Int64(exactly: (now.timeIntervalSinceReferenceDate * 1e9).rounded()) ?? 0
        append(VirtualTimeRecord(nanoseconds: nanoseconds))
    }

    /// What an action scheduled during an event, or by the recorded code, carries to where
    /// it runs.
    private struct ScheduledBy: Sendable {
        let recording: UInt64
        let cause: RecordedCause
    }

    /// Begins an action scheduled during an event, or by the recorded code, of this
    /// recording: until its end the thread is during that event (with no event, the
    /// recorded code's). An action scheduled under another recording begins nothing here.
    private func beginScheduledAction(_ scheduled: (any Sendable)?) -> Began {
        guard let scheduled = scheduled as? ScheduledBy, scheduled.recording == identity else { return .none }
        guard scheduled.cause != .none, isActive else {
            // Restoring nothing but the code mark: `end` stops there.
            return recordsCode ? Began(restore: 1, mark: CodeScopeMark.enter(identity)) : .none
        }
        let previous = withCurrentBuffer { buffer in
            defer { buffer.cause = scheduled.cause }
            return CauseGivenUp(cause: buffer.cause, buffer: .passUnretained(buffer))
        }
        return beginDelivery(after: previous)
    }

    func disposableReturned(_ disposable: AnyObject, for subscription: SubscriptionID) {
        guard isActive else { return }
        live.disposableReturned(disposable, for: subscription)
    }

    func disposed(_ subscription: SubscriptionID, cause: DisposalCause) {
        guard isActive else { return }
        live.ended(subscription)
        appendCompactly(DisposedRecord(subscription: subscription.rawValue, cause: cause.rawValue))
    }

    func demandRequested(_ subscription: SubscriptionID, demand: SubscriptionDemand) {
        guard isActive else { return }
        append(DemandRecord(subscription: subscription, demand: demand))
    }

    func nodeTerminated(_ node: NodeID) {
        guard isActive else { return }
        live.nodeTerminated(node)
    }

    func eventDropped(_ violation: DroppedEvent) {
        guard isActive else { return }
        // A violation is rare and its site is what the user needs, so this path may
        // symbolicate: the user's frames of the send, innermost first.
        let sent = SendStack.capture()
        let stack = string(sent.frames.joined(separator: "\n"))
        let file = sent.site.map { string($0.file) } ?? 0
        let function = sent.site.map { string($0.function) } ?? 0
        append(
            ViolationRecord(
                node: violation.node.rawValue, subscription: violation.subscription?.rawValue ?? 0, event: violation.kind.code,
                stack: stack, file: file, function: function, line: UInt32(truncatingIfNeeded: sent.site?.line ?? 0)))
    }

    // MARK: Writing records

    /// Walks the heap from everything still alive and writes what it found: the snapshot
    /// record with the walk's budget, an `alive` record per live node and subscription, a
    /// `heapObject` record per object reached and a `reference` record per strong
    /// reference between them.
    private func appendSnapshot() {
        let heap = snapshot()
        let header = SnapshotRecord(
            limits: heap.limits, objectLimitReached: heap.objectLimitReached, depthLimitReached: heap.depthLimitReached,
            memoryUnreadable: heap.memoryUnreadable, usedAllocationTable: heap.usedAllocationTable,
            unwalkedReason: heap.unwalkedReason.map(string) ?? 0)

        append(header)
        for (node, retainCount, terminated) in heap.nodes {
            appendAlive(.node, node.rawValue, retainCount: retainCount, terminated: terminated)
        }
        for (subscription, retainCount) in heap.subscriptions {
            appendAlive(.subscription, subscription.rawValue, retainCount: retainCount, terminated: false)
        }
        for subscription in heap.droppedDisposables { append(DroppedDisposableRecord(subscription: subscription)) }
        for object in heap.objects {
            let record = HeapObjectRecord(
                object: object.id, address: UInt64(object.vertex.address), typeName: string(object.vertex.typeName),
                category: object.vertex.category.rawValue, exploration: object.vertex.exploration.rawValue,
                entity: object.role, retainCount: UInt64(clamping: object.vertex.retainCount),
                allocation: allocation(by: object.vertex.allocatedBy), allocationOrder: object.allocationOrder,
                freedWeakCaptures: UInt64(object.vertex.freedWeakCaptures.count),
                freedWeakReferent: object.vertex.freedWeakCaptures.first { !$0.isEmpty }.map(string) ?? 0)
            append(record)
        }
        for reference in heap.references {
            append(referenceRecord(reference))
        }
        appendWatched(in: heap)
        for (typeName, site) in heap.typeSites {
            append(
                TypeSiteRecord(
                    typeName: string(typeName), file: string(site.file), function: string(site.function),
                    line: UInt32(truncatingIfNeeded: site.line)))
        }
    }

    // MARK: Watched objects

    /// Watches `object`, which the program says should be freed within `within` of now
    /// (`Tracer.expectDeallocation`): if it is still alive then, a heap snapshot taken at
    /// that moment proves what holds it, in a `retained` record.
    /// (`within` `nil`: when the recording ends.)
    func expectDeallocation(of object: AnyObject, within: Duration?, reason: String, site: SourceLocation) {
        guard isActive else { return }
        watchlist.watch(object, within: within, reason: reason, site: site) { [weak self] in self?.deadlinesPassed() }
    }

    /// Marks a point of the run (`Tracer.checkpoint`): takes a heap snapshot now, on the
    /// calling thread's behalf, and writes what was alive in a `checkpoint` record. Once the
    /// recording is closing, the closing snapshot says the rest.
    func checkpoint(_ label: String, site: TraceSite) {
        guard isActive, let heap = watchlist.exclusively({ snapshot() }) else { return }
        var counts: [String: UInt32] = [:]
        for object in heap.objects where object.vertex.category == .user {
            counts[object.vertex.typeName, default: 0] &+= 1
        }
        append(
            CheckpointRecord(
                label: string(label), file: string(site.file), function: string(site.function),
                line: UInt32(truncatingIfNeeded: site.line), flags: heap.sawPartOfTheHeap ? 1 : 0,
                nodes: heap.nodes.map { CheckpointRecord.Identifier(id: $0.0.rawValue) },
                subscriptions: heap.subscriptions.map { CheckpointRecord.Identifier(id: $0.0.rawValue) },
                types: counts.sorted { $0.key < $1.key }.map { CheckpointRecord.TypeCount(typeName: string($0.key), count: $0.value) }))
    }

    /// Watched objects announced one by one on standard error; beyond them, one line says
    /// how many more there are.
    private static let announcedOneByOne = 10

    /// A watched object's deadline passed while the program runs (on the watchlist's queue):
    /// every object whose deadline has passed and that is still alive is judged from one
    /// snapshot, when the pacing allows one.
    private func deadlinesPassed() {
        guard isActive else { return }
        let alive = watchlist.due(at: .now).filter { entry in
            guard entry.object.object != nil else {
                watchlist.forget(entry.id)
                return false
            }
            return true
        }
        guard !alive.isEmpty else { return }
        let now = ContinuousClock.now
        let wait: Duration? = watchlist.pacing.withLock { pacing in
            guard pacing.taken < Watchlist.Pacing.limit else { return .zero }
            guard let next = pacing.nextAllowed, next > now else { return nil }
            if pacing.isCheckScheduled { return .zero }
            pacing.isCheckScheduled = true
            return now.duration(to: next)
        }
        if let wait {
            // Over the limit (the closing snapshot judges them), or checked again when the
            // next snapshot is allowed.
            if wait > .zero {
                watchlist.check(after: wait) { [weak self] in
                    guard let self else { return }
                    watchlist.pacing.withLock { $0.isCheckScheduled = false }
                    deadlinesPassed()
                }
            }
            return
        }
        let paths = RetainingPaths(snapshot())
        let taken = ContinuousClock.now
        // Freed before the snapshot saw it: in time after all. (One the snapshot saw, freed
        // since, was retained, then released: the closing snapshot says so.)
        let judged = alive.filter { entry in
            guard paths.reaches(entry.address) || entry.object.object != nil else {
                watchlist.forget(entry.id)
                return false
            }
            return true
        }
        let (isLast, announcing) = watchlist.pacing.withLock { pacing in
            pacing.taken += 1
            pacing.nextAllowed = taken + Watchlist.Pacing.gap(after: now.duration(to: taken))
            let announcing = min(judged.count, max(0, Self.announcedOneByOne - pacing.announced))
            pacing.announced += announcing
            return (pacing.taken == Watchlist.Pacing.limit, announcing)
        }
        for (index, entry) in judged.enumerated() {
            let late = entry.deadline.map { $0.duration(to: taken) } ?? .zero
            appendRetained(entry, in: paths, midRun: true, late: late)
            watchlist.markReported(entry.id)
            guard index < announcing else { continue }
            let (after, deadline) = RetainedObject.timing(within: entry.within ?? .zero, late: late)
            announce?(
                "signalscope: retained-after-release: \(Trace.shortTypeName(entry.typeName)) is still alive \(after) "
                    + "\"\(entry.reason)\" (\(entry.site.file):\(entry.site.line)\(deadline))")
        }
        if judged.count > announcing {
            announce?("signalscope: retained-after-release: \(judged.count - announcing) more watched objects are still alive past their deadlines")
        }
        if isLast {
            announce?("signalscope: note: watched objects whose deadlines pass from now on are judged when recording ends (\(Watchlist.Pacing.limit) snapshots taken while the program ran)")
        }
    }

    /// At the closing snapshot: a watched object reported retained that has gone since is
    /// released; one whose deadline has passed and that is still alive is retained, as
    /// `heap` shows. (One whose deadline is still to come is not judged.)
    private func appendWatched(in heap: HeapSnapshot) {
        let now = ContinuousClock.now
        let paths = RetainingPaths(heap)
        for entry in watchlist.all {
            let isAlive = entry.object.object != nil
            if entry.wasReported {
                if !isAlive { append(ReleasedRecord(watch: entry.id)) }
            } else if isAlive, entry.deadline.map({ $0 <= now }) ?? true {
                appendRetained(entry, in: paths, midRun: false, late: entry.deadline.map { $0.duration(to: now) } ?? .zero)
            }
        }
    }

    private func appendRetained(_ entry: Watchlist.Entry, in paths: RetainingPaths, midRun: Bool, late: Duration) {
        let site = site(entry.site)
        var record = RetainedRecord(
            watch: entry.id, typeName: string(entry.typeName), reason: string(entry.reason), file: site.file,
            function: site.function, line: site.line,
            flags: (midRun ? 1 : 0) | (paths.sawPartOfTheHeap ? 32 : 0), withinNanoseconds: entry.within?.wholeNanoseconds ?? 0,
            lateNanoseconds: late.wholeNanoseconds)
        guard let path = paths.path(to: entry.address) else {
            record.flags |= 8
            append(record)
            return
        }
        record.target = path.target.id
        record.targetAddress = UInt64(path.target.vertex.address) ^ HeapObjectRecord.addressKey
        record.flags |= path.isCycle ? 2 : 0
        if let start = path.start {
            // Bits 2 and 4 are the verdict a reader of format 3.3 reads; a newer one judges the counts.
            record.flags |= (start.isHeldOnlyByInexactWords ? 4 : 0) | (start.isHeldFromOutside ? 16 : 0) | RetainedRecord.hasStartCounts
            record.startRetainCount = UInt64(start.retainCount)
            record.startExactReferences = UInt64(start.exactReferences)
            record.startInexactReferences = UInt64(start.inexactReferences)
        }
        let objects = Dictionary(path.objects.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        record.links = path.chain.compactMap { reference in
            guard let holder = objects[reference.from] else { return nil }
            let (entityCode, entityID) = holder.role?.code ?? (.none, 0)
            return RetainedRecord.Link(
                address: UInt64(holder.vertex.address) ^ HeapObjectRecord.addressKey, typeName: string(holder.vertex.typeName), category: holder.vertex.category.rawValue,
                entityKind: entityCode.rawValue, entityID: entityID, reference: referenceRecord(reference))
        }
        append(record)
    }

    /// A consistent snapshot of the heap now, from everything still alive.
    private func snapshot() -> HeapSnapshot {
        live.snapshot(limits: heapLimits, allocatedSince: allocationStart) { [self] entry in
            allocation(by: HeapWalker.Allocator(entry))
                == .byRecordedCode
        }
    }

    /// Whether an object was allocated by the recorded code, by what was running then.
    private func allocation(by allocator: HeapWalker.Allocator?) -> TraceHeap.Allocation {
        guard let allocator else { return .unknown }
        guard allocator.scope != CodeScopeMark.tracer else { return .whileRecording }
        guard recordsCode else { return .byRecordedCode }
        let own = allocator.scope == identity || (allocator.task != 0 && scopeTasks.contains(allocator.task))
        return own ? .byRecordedCode : .whileRecording
    }

    private func appendAlive(_ entity: LiveEntityCode, _ id: UInt64, retainCount: Int, terminated: Bool) {
        append(AliveRecord(entity: entity.rawValue, flags: terminated ? 1 : 0, id: id, retainCount: UInt64(clamping: retainCount)))
    }

    private func referenceRecord(_ reference: HeapSnapshot.Reference) -> ReferenceRecord {
        let found = reference.found
        let kind = found.kind.code.rawValue
        let element: UInt32 =
            switch found.kind {
            case .element(let index): UInt32(clamping: index)
            case .value(let key): key.map(string) ?? 0
            case .storedProperty, .capture, .key, .boxedValue: 0
            }
        let closure = reference.closure
        let closureSite = closure?.site.map(site)
        return ReferenceRecord(
            from: reference.from, to: reference.to, referenceKind: kind,
            flags: (found.isExact ? 0 : 1) | (found.isWeak ? 2 : 0) | (found.function != nil ? 4 : 0),
            path: string(found.path),
            offset: found.offset.map { UInt32(clamping: $0) } ?? ReferenceRecord.none, element: element,
            closureRole: closure.map { string($0.role.rawValue) } ?? 0,
            closureFile: closureSite?.file ?? reference.symbolSite.map { string($0.file) } ?? 0,
            closureLine: closureSite?.line ?? reference.symbolSite.map { UInt32(truncatingIfNeeded: $0.line) } ?? 0,
            closureName: closureSite?.function ?? reference.symbol.map(string) ?? 0)
    }

    /// The bounded `String(describing:)` a summary records.
    private func summary(_ subject: some Any) -> String {
        let text = String(describing: subject)
        guard text.count > EventLogFormat.summaryLimit else { return text }
        return String(text.prefix(EventLogFormat.summaryLimit - 1)) + "…"
    }

    /// The id of `text`, recording the text when it is new: an immortal string's found first
    /// among those the thread met last, without the table's lock.
    private func string(_ text: String) -> UInt32 {
        guard let bits = StringTable.immortalBits(of: text) else { return tabled(text) }
        let buffer = currentBuffer()
        if let id = buffer._withUnsafeGuaranteedRef({ $0.stringIDs.text(bits) }) { return id }
        let id = tabled(text)
        buffer._withUnsafeGuaranteedRef { $0.stringIDs.remember(text: bits, id: id) }
        return id
    }

    private func tabled(_ text: String) -> UInt32 {
        let (id, isNew) = strings.id(of: text)
        if isNew { appendString(id, text) }
        return id
    }

    /// The id of a literal, recording its text when new: found first among the literals the
    /// thread met last, by address, without the table's lock.
    private func literal(_ literal: StaticString, in buffer: Unmanaged<ThreadBuffer>) -> UInt32 {
        let address = literal.hasPointerRepresentation ? UInt(bitPattern: literal.utf8Start) : 0
        if address != 0, let id = buffer._withUnsafeGuaranteedRef({ $0.stringIDs.literal(at: address) }) { return id }
        let (id, newText) = strings.id(of: literal)
        if let newText { appendString(id, newText) }
        if address != 0 { buffer._withUnsafeGuaranteedRef { $0.stringIDs.remember(literalAt: address, id: id) } }
        return id
    }

    /// A location's file, function and line, as string ids: literals by their address,
    /// strings by their text, and a location known by its code as the id of the `codeSite`
    /// record that names it when the recording ends (``appendCodeSites()``), with line 0.
    private func site(_ location: SourceLocation) -> (file: UInt32, function: UInt32, line: UInt32) {
        let buffer = currentBuffer()
        if let literals = location.literals {
            return (literal(literals.file, in: buffer), literal(literals.function, in: buffer), UInt32(truncatingIfNeeded: location.line))
        }
        func text(_ text: SourceLocation.Text) -> UInt32 {
            switch text {
            case .literal(let value): literal(value, in: buffer)
            case .string(let value): string(value)
            case .callers: 0
            }
        }
        guard let callers = location.callers else {
            return (text(location.fileText), text(location.functionText), UInt32(truncatingIfNeeded: location.line))
        }
        return (codeSite(callers), 0, 0)
    }

    /// The id a site known by its code is written as until the recording ends
    /// (``appendCodeSites()``); 0 (no site) past ``StringTable/capacity`` distinct ones.
    private func codeSite(_ callers: [UInt]) -> UInt32 {
        codeSites.withLock { sites in
            if let id = sites[callers] { return id }
            guard sites.count < StringTable.capacity else { return 0 }
            let id = strings.reserve()
            sites[callers] = id
            return id
        }
    }

    /// Names every site known by its code, once the program no longer waits for the recording:
    /// one symbolication for all of them.
    private func appendCodeSites() {
        let pending = codeSites.withLock { $0 }
        guard !pending.isEmpty else { return }
        let found = CallerSites.sites(of: Array(pending.keys))
        for (callers, id) in pending.sorted(by: { $0.value < $1.value }) {
            guard let site = found[callers] else { continue }
            append(CodeSiteRecord(site: id, file: string(site.file), function: string(site.function), line: UInt32(truncatingIfNeeded: site.line)))
        }
    }

    private func appendString(_ id: UInt32, _ text: String) {
        append(StringRecord(id: id, text: text))
    }

    /// Appends one record: the common prefix, then `record`'s payload; with `becomesCause`,
    /// the record becomes what causes the thread's next records (an event about to be
    /// delivered).
    /// - Returns: With `becomesCause`, the cause the thread had before and its buffer; `nil`
    ///   without, or when recording has stopped.
    @discardableResult
    private func append<Record: EventRecord>(_ record: Record, becomesCause: Bool = false) -> CauseGivenUp? {
        guard isActive else { return nil }
        // Taken before the record is written, so that nothing the closures below capture is
        // mutable (a captured `var` would be boxed on the heap, once per record).
        let sequence = self.sequence.wrappingAdd(1, ordering: .relaxed).newValue
        let buffer = currentBuffer()
        let cause = buffer._withUnsafeGuaranteedRef { buffer in
            let cause = buffer.cause
            let (causeKind, causeDistance) = cause.prefixFields(for: sequence)
            appendFull(record, sequence: sequence, causeKind: causeKind, causeDistance: causeDistance, timestamp: buffer.now(), to: buffer)
            return cause
        }
        return becomingCause(becomesCause, sequence, buffer, previous: cause)
    }

    /// Appends `record` in the compact form when its fields fit (``CompactRecord``), else as
    /// ``append(_:becomesCause:)`` does.
    ///
    /// Inlined, with the thread's buffer reached through short accessors rather than one
    /// closure around the whole record: the optimizer kept that closure out of line, a call
    /// with its own prologue, stack protector and spills on every delivery. What is rare (a
    /// field that does not fit, a record that would wrap the ring or wait for the writer)
    /// goes out of line instead.
    @discardableResult @inline(__always)
    private func appendCompactly<Record: CompactEventRecord>(_ record: Record, becomesCause: Bool = false) -> CauseGivenUp? {
        guard isActive else { return nil }
        return appendCompactlyWhileActive(record, becomesCause: becomesCause)
    }

    /// ``appendCompactly(_:becomesCause:)`` for a caller that has just found the recording
    /// active (the activity is an atomic load, which the optimizer does not merge with the
    /// caller's).
    @inline(__always)
    private func appendCompactlyWhileActive<Record: CompactEventRecord>(_ record: Record, becomesCause: Bool) -> CauseGivenUp? {
        // The clock first, while little is live that its call would make the delivery save on
        // the stack and load back (read after the sequence number and the thread's fields, it
        // cost 5 instructions more a record). Either order stamps a thread's records in the
        // order of their sequence numbers.
        let buffer = currentBuffer()
        let timestamp = buffer._withUnsafeGuaranteedRef { $0.now() }
        // Wrapping: a `lock xadd`, where the checked form is a compare-and-swap loop; the
        // count never nears 2^64.
        let sequence = self.sequence.wrappingAdd(1, ordering: .relaxed).newValue
        let (cause, position) = buffer._withUnsafeGuaranteedRef { ($0.cause, $0.position) }
        let (causeKind, causeDistance) = cause.prefixFields(for: sequence)
        let compact = CompactRecord(
            record, sequence: sequence, timestamp: timestamp, causeKind: causeKind, causeDistance: causeDistance, after: position)
        if let compact, buffer._withUnsafeGuaranteedRef({ $0.appendWithoutWaiting(size: EventLogFormat.compactSize) { compact.store(to: $0) } }) {
            buffer._withUnsafeGuaranteedRef { $0.position = ThreadPosition(sequence: sequence, timestamp: timestamp) }
        } else {
            appendOutOfLine(record, compact, sequence: sequence, causeKind: causeKind, causeDistance: causeDistance, timestamp: timestamp, to: buffer)
        }
        return becomingCause(becomesCause, sequence, buffer, previous: cause)
    }

    /// ``appendCompactly(_:becomesCause:)``'s rare cases: `compact` when the ring must wrap or
    /// wait first, else `record` whole.
    @inline(never)
    private func appendOutOfLine<Record: CompactEventRecord>(
        _ record: Record, _ compact: CompactRecord?, sequence: UInt64, causeKind: UInt8, causeDistance: UInt32, timestamp: UInt64,
        to unmanaged: Unmanaged<ThreadBuffer>
    ) {
        unmanaged._withUnsafeGuaranteedRef { buffer in
            if let compact {
                append(size: EventLogFormat.compactSize, to: buffer) { compact.store(to: $0) }
                buffer.position = ThreadPosition(sequence: sequence, timestamp: timestamp)
            } else {
                appendFull(record, sequence: sequence, causeKind: causeKind, causeDistance: causeDistance, timestamp: timestamp, to: buffer)
            }
        }
    }

    /// Appends `record` with its whole prefix: to `buffer`, or straight to the log when it
    /// is too large for a buffer.
    private func appendFull<Record: EventRecord>(
        _ record: Record, sequence: UInt64, causeKind: UInt8, causeDistance: UInt32, timestamp: UInt64, to buffer: ThreadBuffer
    ) {
        let size = EventLogFormat.aligned(EventLogFormat.prefixSize + record.payloadSize)
        func fill(_ bytes: UnsafeMutableRawPointer) {
            bytes.initializeMemory(as: UInt8.self, repeating: 0, count: size)
            RecordPrefix(
                size: UInt32(size), kind: Record.kind, causeKind: causeKind, thread: buffer.threadID, causeDistance: causeDistance,
                sequence: sequence, timestamp: timestamp
            ).write(to: bytes)
            record.write(to: bytes + EventLogFormat.prefixSize)
        }
        if size > bufferCapacity / 4 {
            // Outside the thread's batches: the position its compact records follow stays.
            let bytes = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 8)
            defer { bytes.deallocate() }
            fill(bytes)
            writer.writeDirectly(UnsafeRawBufferPointer(start: bytes, count: size))
        } else {
            append(size: size, to: buffer, fill(_:))
            buffer.position = ThreadPosition(sequence: sequence, timestamp: timestamp)
        }
    }

    /// Appends a record of `size` bytes that `write` fills to `buffer`, waiting for the writer
    /// while it is full.
    @inline(__always)
    private func append(size: Int, to buffer: ThreadBuffer, _ write: (UnsafeMutableRawPointer) -> Void) {
        buffer.append(size: size, waitForSpace: {
            self.writer.requestDrain()
            sched_yield()
        }, write)
    }

    /// With `becomesCause`, makes record `sequence` what causes `buffer`'s thread's next
    /// records, and returns the cause to give back after its delivery.
    @inline(__always)
    private func becomingCause(
        _ becomesCause: Bool, _ sequence: UInt64, _ buffer: Unmanaged<ThreadBuffer>, previous: RecordedCause
    ) -> CauseGivenUp? {
        guard becomesCause else { return nil }
        buffer._withUnsafeGuaranteedRef { $0.cause = RecordedCause(delivering: sequence) }
        return CauseGivenUp(cause: previous, buffer: buffer)
    }

    /// The cause a thread had before a record became its cause, and the buffer it belongs
    /// to, for the delivery's end to give it back (``Began``).
    private struct CauseGivenUp {
        let cause: RecordedCause
        let buffer: Unmanaged<ThreadBuffer>
    }

    /// Runs `body` with the calling thread's buffer for this recording, made on first use,
    /// without retaining the thread's state or the buffer (each record goes this way).
    @inline(__always)
    private func withCurrentBuffer<Result>(_ body: (ThreadBuffer) -> Result) -> Result {
        currentBuffer()._withUnsafeGuaranteedRef(body)
    }

    /// The calling thread's buffer for this recording, made on first use, unretained: the
    /// thread keeps it while this recording is active (``TracingThread``).
    @inline(__always)
    private func currentBuffer() -> Unmanaged<ThreadBuffer> {
        TracingThread.buffer(
            for: identity,
            isFinished: { recording in Self.finishedRecordings.withLock { $0.contains(recording) } },
            make: {
                let buffer = ThreadBuffer(threadID: threadCount.add(1, ordering: .relaxed).newValue, capacity: bufferCapacity)
                writer.register(buffer)
                return buffer
            })
    }
}
