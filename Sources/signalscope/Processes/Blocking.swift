import Foundation

/// Work that blocks a thread (waiting for a process, reading a whole trace), run from async
/// code on a thread of its own: Swift's cooperative pool has a thread per core, and one held
/// by a blocking call is one the live page's streams cannot use.
enum Blocking {
    /// Runs `body` on a new thread and resumes with what it returned or threw.
    static func run<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Swift.Result { try body() }) }.start()
        }
    }

    /// Runs `body`, which cannot throw, on a new thread and resumes with what it returned.
    static func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }
}
