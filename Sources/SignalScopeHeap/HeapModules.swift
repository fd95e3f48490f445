@_spi(Locking) import SignalScope
import Synchronization

/// Which modules' classes the heap walk treats as a reactive library's plumbing, or as the
/// tracer's own objects, rather than as the program's.
///
/// SignalScope's runtime is known; its tracer declares itself before its first walk. An adapter that feeds the tracer from
/// another reactive library (its subjects and subscriptions reported through
/// `SignalInstrumentation`) declares that library's module a reactive runtime, so that its
/// internals (subscriber lists, boxes, schedulers) are plumbing in leak paths, never the
/// program's objects; a tool built on the tracer declares its own module tracer-owned.
public enum HeapModules {
    /// What a module's objects are to the heap walk.
    public enum Role: Sendable {
        /// A reactive library's: its objects are runtime objects, named by what they do.
        case reactiveRuntime
        /// A tracing tool's: its objects are never reported.
        case tracer
    }

    /// Declares that `module`'s classes play `role` (a later declaration replaces an
    /// earlier one). Declare before the recording's closing snapshot.
    public static func declare(_ module: String, as role: Role) {
        roles.withLock { $0[module] = role }
    }

    /// Declares that the module `type` is declared in plays `role`.
    public static func declare(moduleOf type: Any.Type, as role: Role) {
        declare(module(of: type), as: role)
    }

    /// The role of `module`, if one was declared.
    public static func role(of module: some StringProtocol) -> Role? {
        roles.withLock { $0[String(module)] }
    }

    /// Whether a type's name mentions a tracer module's type anywhere (a collection of the
    /// tracer's own values).
    static func mentionsTracerModule(_ typeName: String) -> Bool {
        roles.withLock { roles in roles.contains { $0.value == .tracer && typeName.contains($0.key + ".") } }
    }

    /// The module a type is declared in, from its reflected name.
    static func module(of type: Any.Type) -> String {
        String(String(reflecting: type).prefix { $0 != "." && $0 != "<" })
    }

    private static let roles = LockedValue<[String: Role]>([
        module(of: Signal<Never>.self): .reactiveRuntime,
    ])
}
