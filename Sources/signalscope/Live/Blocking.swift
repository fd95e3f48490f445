import Foundation
import Glibc

/// Runs async work from the command's synchronous code and waits for it (the live server
/// is Swift concurrency; the rest of the tool is not).
final class Blocking<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var result: Result<Value, any Error>?

    @discardableResult
    init(_ work: @escaping @Sendable () async throws -> Value) {
        Task {
            do { self.result = .success(try await work()) } catch { self.result = .failure(error) }
            self.done.signal()
        }
    }

    func wait() throws -> Value {
        done.wait()
        return try result!.get()
    }

    func waitIgnoringErrors() { _ = try? wait() }
}

extension Blocking where Value == Bool {
    func waitOrFalse() -> Bool { (try? wait()) ?? false }
}

/// Waits until signalscope is sent SIGINT, SIGTERM or SIGHUP.
enum SignalWaiting {
    static func waitForInterrupt() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
        var received: Int32 = 0
        sigwait(&set, &received)
    }
}
