import Foundation

/// A reactive library SignalScope knows nothing of, small enough to read: a passthrough
/// subject and its sinks, with an introspection hook of OpenCombine's `_Introspection`
/// shape: it reports a delivery as a call before it and a call after it
/// (`willReceive(subscriber:input:)`, `didReceive(subscriber:input:resultingDemand:)`), never
/// running the delivery inside the tool. `LibraryAdapterTests` traces it through an adapter
/// written against SignalScope's public seam alone.

/// What the library tells an introspection tool.
public protocol ToyIntrospection: AnyObject, Sendable {
    /// Sites come as text, as a library that learns them at run time has them.
    func subjectCreated(_ subject: AnyObject, file: String, line: Int, function: String)
    /// `handlesFailure`: the sink was given a completion closure, which hears a failure.
    func sinkAttached(_ sink: AnyObject, to subject: AnyObject, handlesFailure: Bool, file: String, line: Int, function: String)
    /// A value is about to reach `sink`, on this thread.
    func willReceive(_ value: Any, by sink: AnyObject)
    /// The value has reached `sink`: its closure has returned.
    func didReceive(_ value: Any, by sink: AnyObject)
    /// The subject's completion (`failure` nil: finished) is about to reach `sink`, on this
    /// thread.
    func willFinish(_ sink: AnyObject, failure: (any Error)?)
    /// The completion has reached `sink`.
    func didFinish(_ sink: AnyObject)
    func cancelled(_ sink: AnyObject)
    /// The program was handed `cancellable`, which alone can end `sink`'s attachment: the
    /// subject keeps the sink, never the cancellable.
    func cancellableReturned(_ cancellable: AnyObject, for sink: AnyObject)
    /// The subject was sent its completion: it keeps no sink from now on.
    func subjectCompleted(_ subject: AnyObject)
}

/// Where a tool installs itself.
public enum ToyIntrospectionHook {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var installed: (any ToyIntrospection)?

    public static var current: (any ToyIntrospection)? {
        get { lock.withLock { installed } }
        set { lock.withLock { installed = newValue } }
    }
}

/// Sends each value to every attached sink, holding them until it finishes.
public final class ToySubject<Output>: @unchecked Sendable {
    private let lock = NSLock()
    private var sinks: [ToySink<Output>] = []

    public init(file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function) {
        ToyIntrospectionHook.current?.subjectCreated(self, file: "\(file)", line: Int(line), function: "\(function)")
    }

    /// Attaches `receiveValue`; the subject keeps it until it finishes or the returned
    /// cancellable is cancelled.
    public func sink(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        receiveValue: @escaping (Output) -> Void
    ) -> ToyCancellable {
        sink(file: file, line: line, function: function, completion: nil, receiveValue: receiveValue)
    }

    /// Attaches `receiveValue`, and `receiveCompletion`, which hears the subject finish or
    /// fail (`nil`: finished).
    public func sink(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        receiveCompletion: @escaping ((any Error)?) -> Void, receiveValue: @escaping (Output) -> Void
    ) -> ToyCancellable {
        sink(file: file, line: line, function: function, completion: receiveCompletion, receiveValue: receiveValue)
    }

    private func sink(
        file: StaticString, line: UInt, function: StaticString, completion: (((any Error)?) -> Void)?,
        receiveValue: @escaping (Output) -> Void
    ) -> ToyCancellable {
        let sink = ToySink(receiveValue, completion: completion)
        ToyIntrospectionHook.current?.sinkAttached(
            sink, to: self, handlesFailure: completion != nil, file: "\(file)", line: Int(line), function: "\(function)")
        lock.withLock { sinks.append(sink) }
        let cancellable = ToyCancellable { [weak self, weak sink] in
            guard let self, let sink else { return }
            self.lock.withLock { self.sinks.removeAll { $0 === sink } }
            ToyIntrospectionHook.current?.cancelled(sink)
        }
        ToyIntrospectionHook.current?.cancellableReturned(cancellable, for: sink)
        return cancellable
    }

    public func send(_ value: Output) {
        for sink in lock.withLock({ sinks }) { sink.receive(value) }
    }

    public func finish() { complete(failure: nil) }

    /// Ends the subject with `failure`, which each sink's completion closure hears.
    public func fail(_ failure: any Error) { complete(failure: failure) }

    private func complete(failure: (any Error)?) {
        let finished = lock.withLock {
            defer { sinks = [] }
            return sinks
        }
        ToyIntrospectionHook.current?.subjectCompleted(self)
        for sink in finished {
            let hook = ToyIntrospectionHook.current
            hook?.willFinish(sink, failure: failure)
            sink.complete(failure)
            hook?.didFinish(sink)
        }
    }
}

/// One attached closure.
public final class ToySink<Output>: @unchecked Sendable {
    private let receiveValue: (Output) -> Void
    private let completion: (((any Error)?) -> Void)?

    init(_ receiveValue: @escaping (Output) -> Void, completion: (((any Error)?) -> Void)?) {
        self.receiveValue = receiveValue
        self.completion = completion
    }

    func complete(_ failure: (any Error)?) { completion?(failure) }

    func receive(_ value: Output) {
        let hook = ToyIntrospectionHook.current
        hook?.willReceive(value, by: self)
        receiveValue(value)
        hook?.didReceive(value, by: self)
    }
}

/// Ends a sink's attachment.
public final class ToyCancellable: @unchecked Sendable {
    private let onCancel: () -> Void

    init(_ onCancel: @escaping () -> Void) { self.onCancel = onCancel }

    public func cancel() { onCancel() }
}
