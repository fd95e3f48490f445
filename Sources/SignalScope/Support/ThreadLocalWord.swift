import Glibc

/// One machine word per thread, with no allocation.
///
/// The instrumentation seam uses it to know, while a subscription's creation block runs,
/// which subscription caused a nested subscribe, and why a disposal cascade started. Only
/// traced code paths touch it.
final class ThreadLocalWord: Sendable {
    private let key: pthread_key_t

    init() {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "SignalScope: pthread_key_create failed with \(status)")
        self.key = key
    }

    var value: UInt { UInt(bitPattern: pthread_getspecific(key)) }

    /// Runs `body` with the word set to `value`, restoring the previous value afterwards.
    func with<Result>(_ value: UInt, _ body: () throws -> Result) rethrows -> Result {
        let previous = self.value
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: value))
        defer { pthread_setspecific(key, UnsafeRawPointer(bitPattern: previous)) }
        return try body()
    }
}
