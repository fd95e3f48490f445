import Foundation
import SignalScopeTools
import Synchronization

/// An error with a recognisable description.
struct TestError: Error, Equatable, CustomStringConvertible {
    var code = 1
    var description: String { "TestError(\(code))" }
}

/// An object for closures to capture; a weak reference to it proves when it is released.
final class Capture: Sendable {}

/// A weak reference to a `Capture` that some closure captured: tests check through it when
/// the runtime lets the closure, and so the capture, go.
final class CaptureProbe {
    private weak var capture: Capture?

    /// Makes a capture, passes it to `attach` (which typically captures it in an observer
    /// closure), and keeps only a weak reference to it.
    static func attach<Result>(_ attach: (Capture) -> Result) -> (result: Result, probe: CaptureProbe) {
        let probe = CaptureProbe()
        let capture = Capture()
        probe.capture = capture
        return (attach(capture), probe)
    }

    /// Whether the capture has been deallocated.
    var isReleased: Bool { capture == nil }
}

/// A thread-safe counter.
final class Counter: Sendable {
    private let storage = Atomic<Int>(0)
    func increment() { storage.add(1, ordering: .relaxed) }
    var count: Int { storage.load(ordering: .relaxed) }
}

/// A thread-safe list, for recording from closures that may run on any thread.
final class Log<Element: Sendable>: Sendable {
    private let storage = Mutex<[Element]>([])
    func append(_ element: Element) { storage.withLock { $0.append(element) } }
    var items: [Element] { storage.withLock { $0 } }
}
