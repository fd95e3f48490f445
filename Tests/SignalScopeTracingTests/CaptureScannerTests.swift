@testable import SignalScopeTracing
import Testing

/// The scanner must find exactly the objects a closure keeps alive, in debug and release
/// builds (`make test` runs this suite in both).
@Suite("Finding the objects a closure captures")
struct CaptureScannerTests {
    final class Screen {
        var title = ""
    }

    struct Holder {
        let screen: Screen
        let count: Int
    }

    /// Holds a closure the way a subscription holds its observer's: an optional closure
    /// property of a generic class.
    final class Stored<Value> {
        var closure: ((Value) -> Void)?

        init(_ closure: @escaping (Value) -> Void) {
            self.closure = closure
        }

        /// The context word, as stored. A copy in a struct of the same declared type keeps
        /// the closure's representation; passing the closure itself to generic code (such as
        /// `withUnsafeBytes(of:)`) would hand it a reabstraction thunk.
        var context: UnsafeRawPointer? {
            UnsafeRawPointer(bitPattern: withUnsafeBytes(of: Cell(closure: closure)) { $0.load(fromByteOffset: 8, as: UInt.self) })
        }

        private struct Cell {
            let closure: ((Value) -> Void)?
        }
    }

    private func stored<Value>(_ closure: @escaping (Value) -> Void) -> Stored<Value> { Stored(closure) }

    /// Scans as when the observer is stored (read directly) and as at the closing snapshot
    /// (read through the kernel), which must agree; the second scan also meets the first
    /// one's cached layouts.
    private func scan<Value>(_ stored: Stored<Value>) -> [CaptureScanner.Captured] {
        guard let context = stored.context else { return [] }
        let held = CaptureScanner.strongCaptures(ofContext: context, isHeld: true)
        #expect(CaptureScanner.strongCaptures(ofContext: context, isHeld: false) == held)
        return held
    }

    private func captures<Value>(of stored: Stored<Value>) -> [UInt] {
        scan(stored).map(\.address)
    }

    private func address(_ object: AnyObject) -> UInt { UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()) }

    @Test("A strongly captured self is found, with its type")
    func strongSelf() {
        let screen = Screen()
        let closure = stored { (value: Int) in screen.title = "\(value)" }
        let found = scan(closure)
        #expect(found.map(\.address) == [address(screen)])
        #expect(found.first?.typeName.hasSuffix("CaptureScannerTests.Screen") == true)
    }

    @Test("[weak self] and [unowned self] are not strong captures")
    func weakAndUnowned() {
        let screen = Screen()
        let weakly = stored { [weak screen] (value: Int) in screen?.title = "\(value)" }
        let unownedly = stored { [unowned screen] (value: Int) in screen.title = "\(value)" }
        #expect(captures(of: weakly).isEmpty)
        #expect(captures(of: unownedly).isEmpty)
    }

    @Test("self inside a captured struct is found")
    func insideStruct() {
        let screen = Screen()
        let holder = Holder(screen: screen, count: 3)
        let closure = stored { (value: Int) in holder.screen.title = "\(value + holder.count)" }
        #expect(captures(of: closure) == [address(screen)])
    }

    @Test("self held by a captured var (a box) is found")
    func boxedVar() {
        let screen = Screen()
        var current: Screen? = nil
        let closure = stored { (value: Int) in current?.title = "\(value)" }
        current = screen
        #expect(captures(of: closure) == [address(screen)])
        current = nil
        #expect(captures(of: closure).isEmpty)
    }

    @Test("self captured by a nested closure is found")
    func nestedClosure() {
        let screen = Screen()
        let update = { (text: String) in screen.title = text }
        let closure = stored { (value: Int) in update("\(value)") }
        #expect(captures(of: closure) == [address(screen)])
    }

    @Test("a closure with no captures has none")
    func noCaptures() {
        let closure = stored { (value: Int) in print(value) }
        #expect(captures(of: closure).isEmpty)
    }

    @Test("every object of a multi-capture closure is found, and weak ones are left out")
    func multipleCaptures() {
        let screen = Screen()
        let other = Screen()
        let ignored = Screen()
        let holder = Holder(screen: other, count: 1)
        let closure = stored { [weak ignored] (value: Int) in
            screen.title = "\(value)"
            holder.screen.title = "\(holder.count)"
            ignored?.title = ""
        }
        let found = captures(of: closure)
        #expect(Set(found) == [address(screen), address(other)])
    }

    @Test("a word that is not a heap object yields nothing, without faulting")
    func notAContext() {
        #expect(CaptureScanner.strongCaptures(ofContext: UnsafeRawPointer(bitPattern: 0x10)!, isHeld: false).isEmpty)
        #expect(
            CaptureScanner.strongCaptures(ofContext: UnsafeRawPointer(bitPattern: 0x7fff_dead_0000)!, isHeld: false).isEmpty)
    }

    @Test("an object held twice by a closure's captures counts twice")
    func referencesAreCounted() {
        let screen = Screen()
        let holder = Holder(screen: screen, count: 1)
        let closure = stored { (value: Int) in
            screen.title = "\(value)"
            holder.screen.title = "\(holder.count)"
        }
        #expect(captures(of: closure) == [address(screen), address(screen)])
    }

    private func genericClosure<Token>(_ token: Token, _ screen: Screen) -> Stored<Int> {
        stored { (value: Int) in
            _ = token
            screen.title = "\(value)"
        }
    }

    @Test("a closure made in generic code is read with the generic arguments it binds: exactly its captures")
    func genericContext() {
        let screen = Screen()
        let token = Screen()
        #expect(captures(of: genericClosure("token", screen)) == [address(screen)])
        #expect(captures(of: genericClosure(7, screen)) == [address(screen)])
        #expect(captures(of: genericClosure(token, screen)) == [address(token), address(screen)])
    }
}
