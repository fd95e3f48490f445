import SignalScopeTracing

/// This module's objects (a test's hook and its call log, a test observer's log, the leak
/// helpers' state, a testable signal's span log) are tracing machinery, never the
/// program's: declared to the heap walk once, by the first of them made.
enum TestingModule {
    static let declared: Void = HeapModules.declare(moduleOf: RecordingInstrumentation.self, as: .tracer)
}
