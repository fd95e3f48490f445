extension Signal {
    /// Sets `object[keyPath: keyPath]` to every value this signal sends (RAC 2
    /// `-setKeyPath:onObject:`, the `RAC(object, keyPath) = signal` binding).
    ///
    /// ```swift
    /// viewModel.title.signal.assign(to: \.text, on: titleLabel)
    /// ```
    ///
    /// As in RAC 2, the binding does **not** keep `object` alive: it holds it weakly, so
    /// binding a view model's output to the screen that owns the view model makes no cycle.
    /// Combine's `assign(to:on:)` holds its object strongly, the classic leak this avoids.
    /// Once `object` is gone the binding ends, at the first value that finds it gone: Swift
    /// has no deallocation callback for any object, as RAC 2 had in `rac_deallocDisposable`.
    /// To end it the moment the object goes away even if this signal stays silent, bound the
    /// signal by the object's lifetime: `signal.takeUntil(object.lifetime.ended)`.
    ///
    /// The binding sets the value on the thread that delivers it (`deliver(on:)` first for a
    /// main-thread object) and ends when this signal ends; it has no error handler, so an
    /// error ends it and is reported as unhandled.
    ///
    /// - Returns: A disposable that ends the binding.
    @discardableResult
    public func assign<Root: AnyObject>(
        to keyPath: ReferenceWritableKeyPath<Root, Value>, on object: Root,
        file: StaticString = #fileID, line: UInt = #line, function: StaticString = #function
    ) -> Disposable {
        // The observer holds the subscription's disposable to end it when the object is
        // gone; that disposable refers to the subscription weakly, so this is no cycle.
        let binding = SerialDisposable()
        subscribe(
            Observer(next: { [weak object] value in
                if let object { object[keyPath: keyPath] = value } else { binding.dispose() }
            }),
            site: SourceLocation(fileID: file, line: line, function: function),
            prepare: { binding.inner = $0.disposable })
        return binding
    }
}
