/// Carries a value across a `@Sendable` boundary (a Dispatch queue, a timer handler).
///
/// Observer and scheduler closures are deliberately not required to be `Sendable`: code
/// ported from RAC captures mutable state freely, and the runtime serializes events per
/// subscriber. Schedulers are the one place where a closure moves to another thread, which
/// is exactly what the caller asked for, so they wrap it here rather than in every call site.
@usableFromInline
struct UncheckedSendable<Value>: @unchecked Sendable {
    @usableFromInline var value: Value
    @inlinable init(_ value: Value) { self.value = value }
}
