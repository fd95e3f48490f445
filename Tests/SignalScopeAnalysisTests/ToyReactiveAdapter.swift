import Foundation
import SignalScopeTools
import Synchronization
import ToyReactive

/// An adapter that feeds SignalScope's tracer from another reactive library, written as a
/// user would write one, against public API only: the library's introspection calls become
/// `SignalInstrumentation` calls, each entity reporting to the hooks picked when it was made
/// (rule I10), and one registration makes the library's objects runtime plumbing to the
/// heap walk. The library reports a delivery before and after it, so the adapter begins it
/// with the hook and ends it with the token the hook gave (rule I12), kept per thread, since
/// deliveries nest. The analyzers are untouched: they judge the library's subjects by the
/// traits the adapter declares.
final class ToyReactiveAdapter: ToyIntrospection {
    /// Installs the adapter into the library (once).
    static let installed: Void = {
        HeapModules.declare("ToyReactive", as: .reactiveRuntime)
        ToyIntrospectionHook.current = ToyReactiveAdapter()
    }()

    private struct Entity {
        let hook: any SignalInstrumentation
        let node: NodeID
        let subscription: SubscriptionID?
    }

    private let entities = Mutex<[ObjectIdentifier: Entity]>([:])

    func subjectCreated(_ subject: AnyObject, file: String, line: Int, function: String) {
        guard let hook = Instrumentation.current else { return }
        let node = NodeID.next()
        entities.withLock { $0[ObjectIdentifier(subject)] = Entity(hook: hook, node: node, subscription: nil) }
        hook.nodeCreated(
            NodeDescriptor(
                id: node, kind: .subject, name: "ToySubject", site: SourceLocation(file: file, line: UInt(line), function: function),
                parents: [], traits: .hot),
            object: subject)
    }

    func sinkAttached(_ sink: AnyObject, to subject: AnyObject, handlesFailure: Bool, file: String, line: Int, function: String) {
        guard let source = entities.withLock({ $0[ObjectIdentifier(subject)] }) else { return }
        let subscription = SubscriptionID.next()
        entities.withLock { $0[ObjectIdentifier(sink)] = Entity(hook: source.hook, node: source.node, subscription: subscription) }
        source.hook.subscribed(
            SubscriptionDescriptor(
                id: subscription, node: source.node, site: SourceLocation(file: file, line: UInt(line), function: function), parent: nil),
            object: sink)
        // The library keeps no closures a tracer could name, but says what the sink handles.
        source.hook.observerStored(subscription, closures: ObserverClosures(handles: handlesFailure ? .all : .next))
    }

    func willReceive(_ value: Any, by sink: AnyObject) {
        guard let entity = entity(of: sink), let subscription = entity.subscription else { return Self.push(nil) }
        Self.push((entity.hook, entity.hook.nextWillBeDelivered(subscription, value: value)))
    }

    func didReceive(_ value: Any, by sink: AnyObject) {
        Self.popAndEnd()
    }

    func willFinish(_ sink: AnyObject, failure: (any Error)?) {
        guard let entity = entity(of: sink), let subscription = entity.subscription else { return Self.push(nil) }
        let token = failure.map { entity.hook.errorWillBeDelivered(subscription, error: $0) }
            ?? entity.hook.completedWillBeDelivered(subscription)
        Self.push((entity.hook, token))
    }

    func didFinish(_ sink: AnyObject) {
        Self.popAndEnd()
        guard let entity = forget(sink), let subscription = entity.subscription else { return }
        entity.hook.observerReleased(subscription)
        entity.hook.disposed(subscription, cause: .terminal)
    }

    func subjectCompleted(_ subject: AnyObject) {
        guard let entity = entity(of: subject) else { return }
        entity.hook.nodeTerminated(entity.node)
    }

    func cancellableReturned(_ cancellable: AnyObject, for sink: AnyObject) {
        guard let entity = entity(of: sink), let subscription = entity.subscription else { return }
        entity.hook.disposableReturned(cancellable, for: subscription)
    }

    func cancelled(_ sink: AnyObject) {
        guard let entity = forget(sink), let subscription = entity.subscription else { return }
        entity.hook.observerReleased(subscription)
        entity.hook.disposed(subscription, cause: .explicit)
    }

    /// The deliveries in progress on this thread, innermost last: the library's will and
    /// did calls of one delivery come on one thread, and deliveries nest.
    private static func push(_ delivery: (any SignalInstrumentation, DeliveryToken)?) {
        var stack = Thread.current.threadDictionary[stackKey] as? [(any SignalInstrumentation, DeliveryToken)?] ?? []
        stack.append(delivery)
        Thread.current.threadDictionary[stackKey] = stack
    }

    private static func popAndEnd() {
        guard var stack = Thread.current.threadDictionary[stackKey] as? [(any SignalInstrumentation, DeliveryToken)?],
            let delivery = stack.popLast()
        else { return }
        Thread.current.threadDictionary[stackKey] = stack
        if let (hook, token) = delivery { hook.deliveryEnded(token) }
    }

    private static let stackKey = "ToyReactiveAdapter.deliveries"

    private func entity(of object: AnyObject) -> Entity? {
        entities.withLock { $0[ObjectIdentifier(object)] }
    }

    private func forget(_ object: AnyObject) -> Entity? {
        entities.withLock { $0.removeValue(forKey: ObjectIdentifier(object)) }
    }
}
