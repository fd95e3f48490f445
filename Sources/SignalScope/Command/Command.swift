/// Why a command refused to execute.
public enum CommandError: Error, Equatable, CustomStringConvertible {
    /// `execute` was called while the command was disabled (RACCommandErrorNotEnabled).
    case notEnabled

    public var description: String {
        switch self {
        case .notEnabled: "the command is not enabled"
        }
    }
}

/// An action triggered by the user, such as a button's, that runs a signal per execution
/// and reports progress (RACCommand).
///
/// ```swift
/// let login = Command<Credentials, User>(enabled: formIsValid) { credentials in
///     api.login(credentials)
/// }
/// login.executionSignals.switchToLatest().subscribeNext { user in show(user) }
/// login.errors.subscribeNext { error in alert(error) }
/// login.execute(credentials)
/// ```
///
/// - Each execution subscribes to the signal the block returns once, at once, and replays
///   its events to the caller of ``execute(_:)`` and to ``executionSignals`` subscribers.
/// - Errors go to ``errors``, not to ``executionSignals``' inner signals; the signal
///   ``execute(_:)`` returns still fails with them.
/// - ``enabled`` is the `enabled` signal (initially `true`) AND
///   (``allowsConcurrentExecution`` OR NOT executing). Executing while disabled fails with
///   ``CommandError/notEnabled``.
/// - ``executionSignals``, ``errors``, ``executing`` and ``enabled`` deliver on the
///   command's scheduler (RAC delivers on the main thread); ``executing`` and ``enabled``
///   replay their latest value. All of them complete when the command is deinitialized.
public final class Command<Input, Output>: @unchecked Sendable {
    /// A signal of the signal of every execution, with errors removed (they go to ``errors``).
    public let executionSignals: Signal<Signal<Output>>
    /// The error of every execution that fails.
    public let errors: Signal<any Error>
    /// Whether an execution is running; replays the latest value.
    public let executing: Signal<Bool>
    /// Whether the command can execute now; replays the latest value.
    public let enabled: Signal<Bool>

    private let core: CommandCore<Output>
    private let work: (Input) -> Signal<Output>
    private let enabledInput: Disposable?

    /// Creates a command.
    ///
    /// - Parameters:
    ///   - enabled: Whether the command may execute; `true` until it sends a value.
    ///   - scheduler: Where the command's signals deliver. The default delivers on the
    ///     thread where the change happened; pass `QueueScheduler.main` for UI code.
    ///   - execute: Makes the signal of one execution from its input.
    public init(
        enabled: Signal<Bool>? = nil, scheduler: any Scheduler = ImmediateScheduler(),
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        _ execute: @escaping (Input) -> Signal<Output>
    ) {
        let site = SourceLocation(file, line, function)
        let core = CommandCore<Output>(site: site)
        self.core = core
        work = execute
        executionSignals = core.executions.deliver(on: scheduler, file: file, line: line, function: function)
        errors = core.errors.deliver(on: scheduler, file: file, line: line, function: function)
        executing = core.executing.deliver(on: scheduler, file: file, line: line, function: function)
        self.enabled = core.enabled.deliver(on: scheduler, file: file, line: line, function: function)
        enabledInput = enabled?.subscribe(
            next: { [weak core] value in core?.update { $0.inputEnabled = value } },
            file: file, line: line, function: function)
        Instrumentation.current?.closuresKept([KeptClosure(.execution, site, execute)], by: .command, object: self)
    }

    deinit {
        enabledInput?.dispose()
        core.close()
    }

    /// Whether executions may overlap; `false` by default, so the command disables itself
    /// while executing.
    public var allowsConcurrentExecution: Bool {
        get { core.allowsConcurrentExecution }
        set { core.update { $0.allowsConcurrentExecution = newValue } }
    }

    /// Starts an execution with `input`, if the command is enabled.
    ///
    /// - Returns: The execution's signal, replaying everything it sends; or, when the
    ///   command is disabled, a signal that fails with ``CommandError/notEnabled``.
    @discardableResult
    public func execute(
        _ input: Input,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Output> {
        guard core.beginExecution() else {
            return .error(CommandError.notEnabled, file: file, line: line, function: function)
        }
        let site = SourceLocation(file, line, function)
        let execution = work(input).multicast(
            ReplaySubject(kind: .command, name: "execution", traits: .completesByItself, capacity: .max, site: site),
            file: file, line: line, function: function)
        let core = core
        execution.signal.subscribe(
            Observer(
                error: { error in core.endExecution(failingWith: error) },
                completed: { core.endExecution(failingWith: nil) }),
            site: site)
        core.executions.sendNext(execution.signal.catchTo(.empty(file: file, line: line, function: function), file: file, line: line, function: function))
        execution.connect()
        return execution.signal
    }
}

extension Command where Input == Void {
    /// Starts an execution, if the command is enabled.
    @discardableResult
    public func execute(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Signal<Output> {
        execute((), file: file, line: line, function: function)
    }
}
