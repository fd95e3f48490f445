/// A signal of `Element`s, as a constraint: lets operators on signals of signals
/// (`flatten()`, `concat()`, `switchToLatest()`) accept subjects as well as signals.
public protocol SignalProtocol<Element>: AnyObject {
    associatedtype Element
    /// The signal itself.
    var asSignal: Signal<Element> { get }
}

extension Signal: SignalProtocol {
    public var asSignal: Signal<Value> { self }
}
