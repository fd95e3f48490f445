/// A value you can read, set and observe (the RACObserve / `RAC(...)` pair; ReactiveSwift
/// and RAC 4 `MutableProperty`).
///
/// ```swift
/// let name = MutableProperty("")
/// name.signal.subscribeNext { print("name is now", $0) }    // prints "" at once
/// name.changes.subscribeNext { print("changed to", $0) }    // prints nothing yet
/// name.value = "Ada"                                         // prints both
/// name.bind(to: textField.text)                              // RAC(self, name) = signal
/// ```
///
/// The property owns the stream of its changes; observing it never keeps it alive. When it
/// is deinitialized, ``signal`` and ``changes`` complete and every binding into it is
/// disposed. ``Property`` is its read-only face.
public final class MutableProperty<Value>: PropertyProtocol, @unchecked Sendable {
    private let lock = StateLock()
    @exclusivity(unchecked) private var storage: Value
    private let subject: BehaviorSubject<Value>
    private let bindings = CompoundDisposable()
    private let site: SourceLocation
    /// Made at the first use of ``changes``, so that a property nobody reads that way adds
    /// no node to a trace.
    @exclusivity(unchecked) private var changesStage: Signal<Value>?

    /// Creates a property holding `initial`.
    public convenience init(
        _ initial: Value,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) {
        self.init(initial, site: SourceLocation(fileID: file, line: line, function: function))
    }

    init(_ initial: Value, site: SourceLocation) {
        storage = initial
        subject = BehaviorSubject(initial, kind: .property, name: "property", traits: .completesByItself, site: site)
        self.site = site
    }

    deinit {
        bindings.dispose()
        subject.sendCompleted()
    }

    /// The current value. Setting it sends the new value on ``signal``.
    ///
    /// Reading right after setting, on the same thread, returns what was set, even from
    /// inside an observer of this property.
    public var value: Value {
        get { lock.withLock { storage } }
        set {
            lock.withLock { storage = newValue }
            subject.sendNext(newValue)
        }
    }

    /// Sends the current value when subscribed, then every later value; completes when the
    /// property is deinitialized (RACObserve; ReactiveSwift `property.producer`). Use
    /// ``changes`` for the later values only.
    public var signal: Signal<Value> { subject }

    /// Every later value, without the current one: completes when the property is
    /// deinitialized (ReactiveSwift `property.signal`). Use ``signal`` to get the current
    /// value first.
    public var changes: Signal<Value> {
        lock.withLock {
            if let changesStage { return changesStage }
            // The subject's first event for every subscriber is the current value (replayed
            // as it subscribes, also after it ended): skipping one leaves the changes.
            let stage = subject.skipStage(1, "changes", site)
            changesStage = stage
            return stage
        }
    }

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
        bind(to: source, site: SourceLocation(fileID: file, line: line, function: function))
    }

    @discardableResult
    func bind(to source: Signal<Value>, site: SourceLocation) -> Disposable {
        let binding = CompoundDisposable()
        bindings.add(binding)
        let unregister: () -> Void = { [weak bindings, weak binding] in
            if let binding { bindings?.remove(binding) }
        }
        binding.add(source.subscribe(
            Observer(next: { [weak self] in self?.value = $0 }, error: { _ in unregister() }, completed: unregister, bindsInto: subject.id),
            site: site))
        return binding
    }
}
