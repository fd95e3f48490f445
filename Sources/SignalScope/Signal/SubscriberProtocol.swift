/// Anything that receives a signal's events: a ``Subscriber``, a ``Subject``, or a type of
/// your own (RACSubscriber).
///
/// `signal.subscribe(target)` forwards every event of `signal` into `target`.
public protocol SubscriberProtocol<Value>: AnyObject {
    associatedtype Value

    /// Receives a value.
    func sendNext(_ value: Value)
    /// Receives an error, after which nothing more is sent.
    func sendError(_ error: any Error)
    /// Receives completion, after which nothing more is sent.
    func sendCompleted()
    /// Receives the disposable of a subscription that forwards into this subscriber, so the
    /// subscriber can stop it. The default does nothing.
    func didSubscribe(with disposable: Disposable)
}

extension SubscriberProtocol {
    public func didSubscribe(with disposable: Disposable) {}

    /// Sends `event`.
    public func send(_ event: Event<Value>) {
        switch event {
        case .next(let value): sendNext(value)
        case .error(let error): sendError(error)
        case .completed: sendCompleted()
        }
    }
}

/// The closures one subscription calls.
struct Observer<Value> {
    var next: ((Value) -> Void)?
    var error: ((any Error) -> Void)?
    var completed: (() -> Void)?
    /// For a property binding: the node of the property it sets (reported with the
    /// subscription, ``SubscriptionDescriptor/bindingTarget``).
    var bindsInto: NodeID?

}
