/// A command's state and the subjects behind its public signals. Executions in flight
/// hold this, not the command, so a command can go away while one runs.
final class CommandCore<Output>: @unchecked Sendable {
    let executions: Subject<Signal<Output>>
    let errors: Subject<any Error>
    let executing: BehaviorSubject<Bool>
    let enabled: BehaviorSubject<Bool>
    private let lock = StateLock()
    @exclusivity(unchecked) private var state = CommandState()
    // Touched only by the publications trampoline's drainer.
    private var published = CommandState().snapshot

    init(site: SourceLocation) {
        executions = Subject(kind: .command, name: "executionSignals", traits: .completesByItself, capacity: 0, initial: [], site: site)
        errors = Subject(kind: .command, name: "errors", traits: .completesByItself, capacity: 0, initial: [], site: site)
        executing = BehaviorSubject(published.executing, kind: .command, name: "executing", traits: .completesByItself, site: site)
        enabled = BehaviorSubject(published.enabled, kind: .command, name: "enabled", traits: .completesByItself, site: site)
    }

    var allowsConcurrentExecution: Bool { lock.withLock { state.allowsConcurrentExecution } }

    /// Changes the state and publishes the `executing` and `enabled` values that result.
    func update(_ change: (inout CommandState) -> Void) {
        let first = lock.withLock { () -> CommandState.Snapshot? in
            guard state.isOpen else { return nil }
            change(&state)
            let snapshot = state.snapshot
            return state.publications.enter(snapshot) ? snapshot : nil
        }
        var next = first
        while let snapshot = next {
            if snapshot.executing != published.executing { executing.sendNext(snapshot.executing) }
            if snapshot.enabled != published.enabled { enabled.sendNext(snapshot.enabled) }
            published = snapshot
            next = lock.withLock { state.publications.next() }
        }
    }

    /// Counts a new execution in, if the command is enabled; returns whether it was.
    func beginExecution() -> Bool {
        var began = false
        update { state in
            guard state.snapshot.enabled else { return }
            state.active += 1
            began = true
        }
        return began
    }

    /// Counts an execution out, then reports its error, if any.
    func endExecution(failingWith error: (any Error)?) {
        update { $0.active -= 1 }
        if let error, lock.withLock({ state.isOpen }) { errors.sendNext(error) }
    }

    /// Completes every public signal: the command is gone.
    func close() {
        lock.withLock { state.isOpen = false }
        executions.sendCompleted()
        errors.sendCompleted()
        executing.sendCompleted()
        enabled.sendCompleted()
    }
}

/// A command's state, apart from its output type.
struct CommandState {
    var active = 0
    var inputEnabled = true
    var allowsConcurrentExecution = false
    var isOpen = true
    /// Snapshots of (executing, enabled) in the order the changes happened, published
    /// one at a time so that every observer sees them in that order.
    var publications = Trampoline<Snapshot>()

    /// The values `executing` and `enabled` should show.
    struct Snapshot: Equatable {
        var executing: Bool
        var enabled: Bool
    }

    var snapshot: Snapshot {
        Snapshot(executing: active > 0, enabled: inputEnabled && (allowsConcurrentExecution || active == 0))
    }
}
