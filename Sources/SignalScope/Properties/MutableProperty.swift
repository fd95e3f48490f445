/// A value you can read, set and observe (the RACObserve / `RAC(...)` pair).
///
/// ```swift
/// let name = MutableProperty("")
/// name.signal.subscribeNext { print("name is now", $0) }   // prints "" at once
/// name.value = "Ada"                                        // prints "Ada"
/// name.bind(to: textField.text)                             // RAC(self, name) = signal
/// ```
///
/// The property owns the stream of its changes; observing it never keeps it alive. When it
/// is deinitialized, its ``signal`` completes and every binding into it is disposed.
public final class MutableProperty<Value>: @unchecked Sendable {
    private let lock = StateLock()
    @exclusivity(unchecked) private var storage: Value
    private let changes: BehaviorSubject<Value>
    private let bindings = CompoundDisposable()

    /// Creates a property holding `initial`.
    public init(
        _ initial: Value,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) {
        storage = initial
        changes = BehaviorSubject(
            initial, kind: .property, name: "property", traits: .completesByItself,
            site: SourceLocation(fileID: file, line: line, function: function))
    }

    deinit {
        bindings.dispose()
        changes.sendCompleted()
    }

    /// The current value. Setting it sends the new value on ``signal``.
    ///
    /// Reading right after setting, on the same thread, returns what was set, even from
    /// inside an observer of this property.
    public var value: Value {
        get { lock.withLock { storage } }
        set {
            lock.withLock { storage = newValue }
            changes.sendNext(newValue)
        }
    }

    /// Sends the current value when subscribed, then every new value; completes when the
    /// property is deinitialized (RACObserve).
    public var signal: Signal<Value> { changes }

    /// Sets the property to every value `source` sends, until `source` ends, the returned
    /// disposable is disposed, or the property is deinitialized (RAC `RAC(self, prop) =
    /// signal`).
    ///
    /// The binding holds the property weakly. An error from `source` ends the binding and
    /// leaves the value unchanged.
    @discardableResult
    public func bind(
        to source: Signal<Value>,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Disposable {
        let binding = CompoundDisposable()
        bindings.add(binding)
        let unregister: () -> Void = { [weak bindings, weak binding] in
            if let binding { bindings?.remove(binding) }
        }
        binding.add(source.subscribe(
            Observer(next: { [weak self] in self?.value = $0 }, error: { _ in unregister() }, completed: unregister, bindsInto: changes.id),
            site: SourceLocation(fileID: file, line: line, function: function)))
        return binding
    }
}
