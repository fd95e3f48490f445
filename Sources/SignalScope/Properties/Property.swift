/// A value that can be read and observed: what ``Property`` and ``MutableProperty`` share
/// (ReactiveSwift `PropertyProtocol`).
public protocol PropertyProtocol<Value>: AnyObject {
    associatedtype Value
    /// The current value.
    var value: Value { get }
    /// Sends the current value when subscribed, then every later value (ReactiveSwift
    /// `producer`).
    var signal: Signal<Value> { get }
    /// Sends every later value, never the current one (ReactiveSwift `signal`).
    var changes: Signal<Value> { get }
}

/// A read-only property: a view model's output that its owner sets through a
/// ``MutableProperty`` it keeps private, or a value kept up to date by a signal, or a
/// constant (ReactiveSwift `Property`, RAC 4 `AnyProperty` and `ConstantProperty`).
///
/// ```swift
/// final class LoginViewModel {
///     private let status = MutableProperty("")
///     let statusText: Property<String>          // what the view reads and binds
///     let isValid: Property<Bool>
///     init(email: Signal<String>) {
///         statusText = Property(status)
///         isValid = Property(initial: false, then: email.map { $0.contains("@") })
///     }
/// }
/// ```
public final class Property<Value>: PropertyProtocol, @unchecked Sendable {
    /// The property read.
    private let source: any PropertyProtocol<Value>
    /// What `source` follows, kept alive as long as this property is (`map`'s upstream).
    private let upstream: AnyObject?

    /// Sends the current value when subscribed, then every later value; completes when the
    /// property is deinitialized (RACObserve; ReactiveSwift `property.producer`). Use
    /// ``changes`` for the later values only.
    public var signal: Signal<Value> { source.signal }

    /// Every later value, without the current one (ReactiveSwift `property.signal`); use
    /// ``signal`` to get the current value first.
    public var changes: Signal<Value> { source.changes }

    /// The current value.
    public var value: Value { source.value }

    /// A read-only view of `property`, which it keeps alive (ReactiveSwift
    /// `Property(capturing:)`).
    public convenience init(_ property: some PropertyProtocol<Value>) {
        self.init(property, keeping: nil)
    }

    private init(_ property: some PropertyProtocol<Value>, keeping upstream: AnyObject?) {
        source = property
        self.upstream = upstream
    }

    /// A property that is `value` forever (ReactiveSwift `Property(value:)`, RAC 4
    /// `ConstantProperty`): ``signal`` sends it and completes, ``changes`` completes at once.
    public convenience init(
        value: Value,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) {
        self.init(ConstantValue(value, file: file, line: line, function: function))
    }

    /// A property that starts as `initial` and takes every value `values` sends, until it
    /// ends or the property is deinitialized (ReactiveSwift `Property(initial:then:)`).
    ///
    /// `values` is subscribed at once and its subscription belongs to the property: it is
    /// disposed with it, so the property never outlives its owner through it. An error from
    /// `values` ends the updates and keeps the last value.
    public convenience init(
        initial: Value, then values: Signal<Value>,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) {
        self.init(initial: initial, then: values, keeping: nil, SourceLocation(fileID: file, line: line, function: function))
    }

    private convenience init(initial: Value, then values: Signal<Value>, keeping upstream: AnyObject?, _ site: SourceLocation) {
        let storage = MutableProperty(initial, site: site)
        storage.bind(to: values, site: site)
        self.init(storage, keeping: upstream)
    }

    /// A property whose value is always `transform` of this one's (ReactiveSwift
    /// `property.map(_:)`); it keeps this property alive.
    public func map<Output>(
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function,
        _ transform: @escaping (Value) -> Output
    ) -> Property<Output> {
        // `signal` sends the current value as it is subscribed, so the initial value below
        // is replaced at once by one read after the subscription began: no change is lost.
        Property<Output>(
            initial: transform(value), then: signal.map(file: file, line: line, function: function, transform),
            keeping: self, SourceLocation(fileID: file, line: line, function: function))
    }
}

/// What `Property(value:)` reads.
private final class ConstantValue<Value>: PropertyProtocol {
    let value: Value
    let signal: Signal<Value>
    let changes: Signal<Value>

    init(_ value: Value, file: StaticString, line: UInt, function: StaticString) {
        self.value = value
        signal = .just(value, file: file, line: line, function: function)
        changes = .empty(file: file, line: line, function: function)
    }
}
