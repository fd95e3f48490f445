// The product's only API is the environment: linking SignalScopeAutoTrace into a program
// is the opt-in, and SIGNALSCOPE_TRACE then records a run with no code change. See
// bootstrap.c for why the start is a C constructor.
import Foundation
import Glibc
import SignalScopeTracing

/// Called once at load by CSignalScopeBootstrap with `SIGNALSCOPE_TRACE`, which it has
/// checked is set and that the process is not set-id or otherwise privileged: records the
/// whole run into that file (values too when `SIGNALSCOPE_VALUES=1`; the closing heap walk's
/// budget from `SIGNALSCOPE_HEAP_OBJECTS` and `SIGNALSCOPE_HEAP_DEPTH`) and writes it out at
/// exit. `%p` in the name becomes the process id, so that every process of a command that
/// starts several (`swift test` runs its test binary more than once) writes its own trace.
/// Problems are reported on standard error; they never stop the program.
@_cdecl("signalscope_bootstrap_from_environment")
public func signalscopeBootstrapFromEnvironment(_ pattern: UnsafePointer<CChar>) {
    let pattern = String(cString: pattern)
    let path = pattern.replacing("%p", with: String(getpid()))
    let values = getenv("SIGNALSCOPE_VALUES").map { String(cString: $0) == "1" } ?? false
    let (heapLimits, problems) = TraceHeap.Limits.fromEnvironment(ProcessInfo.processInfo.environment)
    for problem in problems { reportToStandardError("signalscope: \(problem)") }
    do {
        try Tracer.startRecording(to: URL(fileURLWithPath: path), values: values, heapLimits: heapLimits)
        atexit {
            do {
                try Tracer.stopRecording()
            } catch {
                reportToStandardError("signalscope: \(error)")
            }
        }
    } catch {
        reportToStandardError("signalscope: SIGNALSCOPE_TRACE: \(error)")
    }
}

private func reportToStandardError(_ line: String) {
    try? FileHandle.standardError.write(contentsOf: Data((line + "\n").utf8))
}
