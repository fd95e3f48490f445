import SignalScopeTracing

/// This module's objects (a test's hook and its call log, a test observer's log, the leak
/// helpers' state) are tracing machinery, never the program's: declared to the heap walk
/// once, by whichever helper a test uses first.
enum TestingModule {
    static let declared: Void = {
        HeapModules.declare(String(String(reflecting: RecordingInstrumentation.self).prefix { $0 != "." }), as: .tracer)
    }()
}
