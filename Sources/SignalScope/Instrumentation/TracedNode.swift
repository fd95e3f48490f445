/// A subscription as a tracer sees it: the disposable that ends it, which user objects may
/// hold (the only way to end a subscription whose source never terminates).
package protocol TracedSubscription: AnyObject {
    var disposableObject: AnyObject { get }
}

extension Subscriber: TracedSubscription {
    package var disposableObject: AnyObject { disposable }
}
