extension Signal {
    /// A hot signal and the handle that feeds it (ReactiveSwift `Signal.pipe()`): what is
    /// sent to `input` goes to everyone subscribed to `output` at the time.
    ///
    /// ```swift
    /// final class SearchViewModel {
    ///     let (queries, queryInput) = Signal<String>.pipe()
    ///     // ... the view sends into `queryInput`, the chains subscribe to `queries`.
    /// }
    /// ```
    ///
    /// Unlike a plain ``Subject``, a pipe cannot be left open by mistake: when `input` is
    /// released (with the view model that holds it), `output` completes, which ends every
    /// chain built on it and releases their subscribers. A subject that is never completed
    /// keeps them alive for as long as it lives (the `never-completed-subject` trap). Hold
    /// `input` for as long as the stream should run; `output` does not keep it alive.
    public static func pipe(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> (output: Signal<Value>, input: SignalInput<Value>) {
        let subject = Subject<Value>(
            kind: .subject, name: "pipe", traits: .completesByItself, capacity: 0, initial: [],
            site: SourceLocation(fileID: file, line: line, function: function))
        return (subject, SignalInput(subject))
    }
}

/// The sending end of ``Signal/pipe(file:line:function:)`` (ReactiveSwift's
/// `Signal.Observer`, RxSwift's `PublishSubject` used as an observer, Combine's
/// `PassthroughSubject.send`).
///
/// Its output completes when it is deinitialized, unless it already ended. It is a
/// ``SubscriberProtocol``, so a signal can forward into it: `signal.subscribe(input)`.
public final class SignalInput<Value>: SubscriberProtocol, @unchecked Sendable {
    private let subject: Subject<Value>

    fileprivate init(_ subject: Subject<Value>) {
        self.subject = subject
    }

    deinit {
        if subject.hasTerminated != true { subject.sendCompleted() }
    }

    /// Sends a value to every current subscriber of the output.
    public func sendNext(_ value: Value) { subject.sendNext(value) }

    /// Fails the output; nothing more is sent.
    public func sendError(_ error: any Error) { subject.sendError(error) }

    /// Completes the output; nothing more is sent.
    public func sendCompleted() { subject.sendCompleted() }

    /// Keeps the disposable of a signal forwarding into this input; disposed when the
    /// output ends.
    public func didSubscribe(with disposable: Disposable) { subject.didSubscribe(with: disposable) }
}
