import DequeModule
import SignalScope
@testable import SignalScopeHeap
@testable import SignalScopeTracing
import Testing

/// The heap walk must find exactly the strong references an object holds, named by where
/// they are, in debug and release builds (`make ci` runs this suite in both: layouts and
/// closure contexts differ).
@Suite("Walking the heap: every strong reference, exactly", .timeLimit(.minutes(10)))
struct HeapWalkerTests {
    final class Leaf {
        var value = 0
    }

    protocol Named: AnyObject {}
    protocol Describable {}
    struct Failure: Error, @unchecked Sendable {
        let leaf: Leaf
    }

    class Base {
        let inherited = Leaf()
    }

    final class Derived: Base {
        let own = Leaf()
        weak var weakly: Leaf?
        unowned let unownedly: Leaf
        unowned(unsafe) let unsafely: Leaf
        let number = 3

        init(_ other: Leaf) {
            unownedly = other
            unsafely = other
            weakly = other
        }
    }

    private func address(_ object: AnyObject) -> UInt { UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()) }

    private func walk(_ roots: AnyObject..., limits: HeapWalker.Limits = .standard) -> HeapWalker.Result {
        let references = roots.map(WeakReference.init)
        return HeapWalker(limits: limits).walk(roots: references.map { reference in HeapWalker.Root(load: { reference.object }) })
    }

    /// The references out of `holder`, as (target, kind, path).
    private func references(from holder: AnyObject, in result: HeapWalker.Result) -> [Reference] {
        guard let index = result.index[address(holder)] else { return [] }
        return result.edges.filter { $0.from == index }.map {
            Reference(target: result.vertices[$0.to].address, kind: $0.reference.kind, path: $0.reference.path)
        }
    }

    private struct Reference: Hashable, CustomStringConvertible {
        let target: UInt
        let kind: HeapReferenceKind
        let path: String
        var description: String { "\(path) -> \(String(target, radix: 16))" }
    }

    /// What the object at `holder` refers to.
    private func targets(of holder: UInt, in result: HeapWalker.Result) -> [UInt] {
        guard let index = result.index[holder] else { return [] }
        return result.edges.filter { $0.from == index }.map { result.vertices[$0.to].address }
    }

    private func stored(_ path: String, _ target: AnyObject) -> Reference {
        Reference(target: address(target), kind: .storedProperty, path: path)
    }

    @Test("A class's stored properties, its superclass's included; weak, unowned and unowned(unsafe) ones left out")
    func storedProperties() {
        let other = Leaf()
        let object = Derived(other)
        let result = walk(object)
        #expect(Set(references(from: object, in: result)) == [stored("inherited", object.inherited), stored("own", object.own)])
        #expect(result.vertices[result.index[address(object)]!].exploration == .complete)
        #expect(result.vertices[result.index[address(object)]!].typeName.hasSuffix("HeapWalkerTests.Derived"))
        withExtendedLifetime(other) {}
    }

    final class Values {
        struct Inner {
            let leaf: Leaf
            let count: Int
        }

        let inner: Inner
        let tuple: (Int, Leaf)
        let optional: Leaf?
        let none: Leaf? = nil
        let optionalInner: Inner?
        let any: Any
        let bigAny: Any
        let named: any Named
        let anyObject: AnyObject
        let error: any Error
        let closure: () -> Int

        init(_ leaves: [Leaf]) {
            inner = Inner(leaf: leaves[0], count: 1)
            tuple = (2, leaves[1])
            optional = leaves[2]
            optionalInner = Inner(leaf: leaves[3], count: 2)
            any = leaves[4]
            bigAny = (leaves[5], leaves[5], leaves[5], 4)  // too large for the inline buffer
            named = Named0(leaf: leaves[6])
            anyObject = leaves[7]
            error = Failure(leaf: leaves[8])
            let captured = leaves[9]
            closure = { captured.value }
        }
    }

    final class Named0: Named {
        let leaf: Leaf
        init(leaf: Leaf) { self.leaf = leaf }
    }

    @Test("Structs, tuples, optionals and existentials stored inline, however nested")
    func inlineValues() throws {
        let leaves = (0..<10).map { _ in Leaf() }
        let object = Values(leaves)
        let result = walk(object)
        let found = references(from: object, in: result)
        #expect(found.contains(stored("inner.leaf", leaves[0])))
        #expect(found.contains(stored("tuple.1", leaves[1])))
        #expect(found.contains(stored("optional", leaves[2])))
        #expect(found.contains(stored("optionalInner.leaf", leaves[3])))
        #expect(found.contains(stored("any", leaves[4])))
        #expect(found.contains(stored("anyObject", leaves[7])))
        #expect(found.count == 10, "\(found)")
        // What sits behind a reference: the out-of-line box of a large `Any`, the class
        // instance of an existential, the error's box, the closure's captured object.
        let box = try #require(found.first { $0.path == "bigAny" })
        #expect(targets(of: box.target, in: result) == [address(leaves[5]), address(leaves[5]), address(leaves[5])])
        #expect(references(from: object.named, in: result) == [stored("leaf", leaves[6])])
        let errorBox = try #require(found.first { $0.path == "error" })
        #expect(targets(of: errorBox.target, in: result) == [address(leaves[8])])
        let closure = try #require(found.first { $0.path == "closure" })
        #expect(closure.target == address(leaves[9]), "a closure capturing one object has that object as its context")
    }

    protocol Source<Item>: AnyObject {
        associatedtype Item
    }
    protocol Carrier<Item> {
        associatedtype Item
    }
    final class LeafSource: Source {
        typealias Item = Leaf
        let leaf: Leaf
        init(_ leaf: Leaf) { self.leaf = leaf }
    }
    struct LeafCarrier: Carrier {
        typealias Item = Leaf
        let leaf: Leaf
    }
    struct LargeCarrier: Carrier {
        typealias Item = Leaf
        let leaves: (Leaf, Leaf, Leaf, Int)
    }

    final class Constrained {
        let source: any Source<Leaf>
        let carrier: any Carrier<Leaf>
        let large: any Carrier<Leaf>
        let optionalSource: (any Source<Leaf>)?
        let type: any Source<Leaf>.Type = LeafSource.self

        init(_ leaves: [Leaf]) {
            source = LeafSource(leaves[0])
            carrier = LeafCarrier(leaf: leaves[1])
            large = LargeCarrier(leaves: (leaves[2], leaves[2], leaves[2], 1))
            optionalSource = LeafSource(leaves[3])
        }
    }

    @Test("Constrained existentials (any P<T>), class-bound, inline, boxed and optional, and their metatypes")
    func constrainedExistentials() throws {
        let leaves = (0..<4).map { _ in Leaf() }
        let object = Constrained(leaves)
        let result = walk(object)
        let found = references(from: object, in: result)
        #expect(found.contains(stored("source", object.source)))
        #expect(found.contains(stored("carrier.leaf", leaves[1])))
        #expect(found.contains(stored("optionalSource", object.optionalSource!)))
        #expect(found.count == 4, "\(found)")
        #expect(references(from: object.source, in: result) == [stored("leaf", leaves[0])])
        let box = try #require(found.first { $0.path == "large" })
        #expect(targets(of: box.target, in: result) == [address(leaves[2]), address(leaves[2]), address(leaves[2])])
        #expect(result.vertices[result.index[address(object)]!].exploration == .complete, "every reference read exactly")
    }

    @Test("The property the analysis reads a subscription's source from is the one that holds it")
    func subscriberSourceProperty() throws {
        var made: Subscriber<Int>?
        let signal = Signal<Int> { subscriber in
            made = subscriber
            return nil
        }
        let disposable = signal.subscribe()
        let subscriber = try #require(made)
        let result = walk(subscriber)
        #expect(references(from: subscriber, in: result).contains(stored(Subscriber<Never>.sourcePropertyName, signal)))
        disposable.dispose()
    }

    enum Payment {
        case none
        case card(Leaf)
        case transfer(Leaf, Int)
        case split(Leaf, Leaf)
        indirect case nested(Payment)
    }

    enum Either<Left, Right> {
        case left(Left)
        case right(Right)
    }

    final class Enums {
        let first: Payment
        let middle: Payment
        let pair: Payment
        let empty: Payment = .none
        let indirect: Payment
        let generic: Either<Int, Leaf>
        let genericFirst: Either<Leaf, String>

        init(_ leaves: [Leaf]) {
            first = .card(leaves[0])
            middle = .transfer(leaves[1], 7)
            pair = .split(leaves[2], leaves[3])
            indirect = .nested(.card(leaves[4]))
            generic = .right(leaves[5])
            genericFirst = .left(leaves[6])
        }
    }

    @Test("Enums: every payload case, first and not, single and several payloads, indirect and generic ones")
    func enums() throws {
        let leaves = (0..<7).map { _ in Leaf() }
        let object = Enums(leaves)
        let result = walk(object)
        let found = references(from: object, in: result)
        #expect(found.contains(stored("first.card", leaves[0])))
        #expect(found.contains(stored("middle.transfer.0", leaves[1])))
        #expect(found.contains(stored("pair.split.0", leaves[2])))
        #expect(found.contains(stored("pair.split.1", leaves[3])))
        #expect(found.contains(stored("generic.right", leaves[5])))
        #expect(found.contains(stored("genericFirst.left", leaves[6])))
        let box = try #require(found.first { $0.path == "indirect.nested" })
        #expect(targets(of: box.target, in: result) == [address(leaves[4])])
        #expect(found.count == 7, "\(found)")
    }

    final class Collections {
        let array: [Leaf]
        let objects: [AnyObject]
        let contiguous: ContiguousArray<Leaf>
        let slice: ArraySlice<Leaf>
        let dictionary: [String: Leaf]
        let keyedByObject: [ObjectIdentifier: Leaf]
        let set: Set<Wrapper>
        let deque: Deque<Leaf>

        init(_ leaves: [Leaf]) {
            array = [leaves[0], leaves[1]]
            objects = [leaves[2]]
            contiguous = [leaves[3]]
            slice = [leaves[4], leaves[5]][1...]
            dictionary = ["owner": leaves[6]]
            keyedByObject = [ObjectIdentifier(leaves[7]): leaves[7]]
            set = [Wrapper(leaf: leaves[8])]
            var deque = Deque<Leaf>()
            deque.append(leaves[9])
            deque.prepend(leaves[10])
            self.deque = deque
        }
    }

    struct Wrapper: Hashable {
        let leaf: Leaf
        static func == (lhs: Wrapper, rhs: Wrapper) -> Bool { lhs.leaf === rhs.leaf }
        func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(leaf)) }
    }

    /// The elements of the storage `holder.path` refers to.
    private func elements(_ holder: AnyObject, _ path: String, _ result: HeapWalker.Result) -> [(HeapReferenceKind, UInt)] {
        guard let storage = references(from: holder, in: result).first(where: { $0.path == path }),
            let index = result.index[storage.target]
        else { return [] }
        return result.edges.filter { $0.from == index }.map { ($0.reference.kind, result.vertices[$0.to].address) }
    }

    @Test("Array, ContiguousArray and slice storage, Dictionary keys and values, Set and Deque elements")
    func collections() {
        let leaves = (0..<11).map { _ in Leaf() }
        let object = Collections(leaves)
        let result = walk(object)
        #expect(elements(object, "array", result).map(\.1) == [address(leaves[0]), address(leaves[1])])
        #expect(elements(object, "array", result).map(\.0) == [.element(0), .element(1)])
        #expect(elements(object, "objects", result).map(\.1) == [address(leaves[2])])
        #expect(elements(object, "contiguous", result).map(\.1) == [address(leaves[3])])
        #expect(elements(object, "slice", result).map(\.1) == [address(leaves[4]), address(leaves[5])], "a slice keeps its whole storage")
        #expect(elements(object, "dictionary", result).map(\.1) == [address(leaves[6])])
        #expect(elements(object, "dictionary", result).map(\.0) == [.value(forKey: "\"owner\"")])
        #expect(elements(object, "keyedByObject", result).map(\.1) == [address(leaves[7])])
        #expect(elements(object, "set", result).map(\.1) == [address(leaves[8])])
        #expect(Set(elements(object, "deque", result).map(\.1)) == [address(leaves[9]), address(leaves[10])])
    }

    class Box<Value> {
        let value: Value
        let values: [Value]
        let optional: Value?
        init(_ value: Value) {
            self.value = value
            values = [value, value]
            optional = value
        }
    }

    final class Sub<Value>: Box<Value> {
        let extra: Value
        override init(_ value: Value) {
            extra = value
            super.init(value)
        }
    }

    @Test("Generic classes, resolved with their real generic arguments, superclasses' included")
    func genericClasses() throws {
        let leaf = Leaf()
        let object = Sub(leaf)
        let result = walk(object)
        let found = references(from: object, in: result)
        #expect(found.contains(stored("value", leaf)))
        #expect(found.contains(stored("optional", leaf)))
        #expect(found.contains(stored("extra", leaf)))
        #expect(elements(object, "values", result).map(\.1) == [address(leaf), address(leaf)])
        let pair = Box((leaf, 3))
        #expect(references(from: pair, in: walk(pair)).contains(stored("value.0", leaf)))
    }

    /// Holds a closure the way the runtime holds one: a stored property of a generic class.
    final class Stored<Value> {
        let closure: (Value) -> Void
        init(_ closure: @escaping (Value) -> Void) { self.closure = closure }
    }

    /// The objects the closure stored in `holder` keeps alive, through its context.
    private func captured<Value>(by holder: Stored<Value>) -> [UInt] {
        let result = walk(holder)
        guard let closure = references(from: holder, in: result).first(where: { $0.path == "closure" }) else { return [] }
        var found: [UInt] = []
        var pending = [closure.target]
        while let next = pending.popLast() {
            let vertex = result.vertices[result.index[next]!]
            if vertex.category == .user {
                found.append(next)
                continue
            }
            pending += result.edges.filter { $0.from == result.index[next] && !$0.reference.isWeak }.map {
                result.vertices[$0.to].address
            }
        }
        return found.sorted()
    }

    private func generic<Token>(_ token: Token, _ leaf: Leaf) -> Stored<Int> {
        Stored { (value: Int) in
            _ = token
            leaf.value = value
        }
    }

    private func method(_ leaf: Leaf) -> Stored<Int> {
        Stored(leaf.set)
    }

    @Test("Closure contexts, nested closures, boxed vars, [weak] captures, generic closures, reabstraction thunks, method references")
    func closures() {
        let a = Leaf(), b = Leaf(), c = Leaf()
        let onlyA = [address(a)], onlyB = [address(b)], onlyC = [address(c)]
        let aAndB = [address(a), address(b)].sorted(), aAndC = [address(a), address(c)].sorted()
        let direct = Stored { (value: Int) in a.value = value }
        #expect(captured(by: direct) == onlyA)
        let two = Stored { (value: Int) in
            a.value = value
            b.value = value
        }
        #expect(captured(by: two) == aAndB)
        let inner = { (value: Int) in c.value = value }
        let nested = Stored { (value: Int) in
            inner(value)
            a.value = value
        }
        #expect(captured(by: nested) == aAndC)
        var boxed: Leaf? = nil
        let boxing = Stored { (value: Int) in boxed?.value = value }
        boxed = b
        #expect(captured(by: boxing) == onlyB)
        let weakly = Stored { [weak a] (value: Int) in
            a?.value = value
            b.value = value
        }
        #expect(captured(by: weakly) == onlyB)
        let unownedly = Stored { [unowned a] (value: Int) in a.value = value }
        #expect(captured(by: unownedly).isEmpty)
        #expect(captured(by: generic("token", a)) == onlyA)
        #expect(captured(by: generic(b, a)) == aAndB)
        let thunked = Stored<String> { text in a.value = text.count }
        #expect(captured(by: thunked) == onlyA)
        #expect(captured(by: method(c)) == onlyC)
        withExtendedLifetime(boxing) {}
    }

    /// A generic closure with an argument: its capture descriptor numbers the places it tells
    /// generic parameters from by the function's parameters, the argument first, so the
    /// index it gives for `Value` (told by `box`) is not `box`'s index among the captures.
    private func told<Value, Output>(
        by box: Box<Value>, _ count: Int, _ leaf: Leaf, _ transform: @escaping (Value) -> Output
    ) -> Stored<Box<Output>> {
        Stored { (other: Box<Output>) in
            leaf.value = count
            _ = (box, transform, other)
        }
    }

    @Test("A generic closure with an argument is read exactly: its parameters from the captures whose types prove them")
    func genericParameterToldByACapture() throws {
        let leaf = Leaf(), token = Leaf()
        let box = Box(token)
        let holder = told(by: box, 3, leaf) { $0.value }
        let result = walk(holder)
        let context = try #require(references(from: holder, in: result).first { $0.path == "closure" }).target
        let index = try #require(result.index[context])
        let edges = result.edges.filter { $0.from == index }
        #expect(edges.allSatisfy { $0.reference.isExact }, "every capture placed exactly, none scanned")
        #expect(edges.map { result.vertices[$0.to].address }.contains(address(leaf)))
        #expect(edges.map { result.vertices[$0.to].address }.contains(address(box)))
    }

    @Test("Retain counts leave out the walk's own references and count the rest")
    func retainCounts() {
        let leaf = Leaf()
        let holders = [Box(leaf), Box(leaf)]
        let result = walk(holders[0], holders[1])
        let vertex = result.vertices[result.index[address(leaf)]!]
        // Two holders with four references each (`value`, `optional`, and two in the
        // storage of `values`), and this test's own `leaf`.
        #expect(result.edges.filter { $0.to == result.index[address(leaf)] }.count == 8)
        #expect(vertex.retainCount == 9)
        withExtendedLifetime(leaf) {}
    }

    final class Chain {
        var next: Chain?
    }

    @Test("The budget: objects beyond it are reported unexplored, and the result says the budget ran out")
    func limits() {
        let first = Chain()
        var last = first
        for _ in 0..<10 {
            let next = Chain()
            last.next = next
            last = next
        }
        let deep = walk(first, limits: .init(objects: 100, depth: 3))
        #expect(deep.depthLimitReached && !deep.objectLimitReached)
        #expect(deep.vertices.count == 4)
        #expect(deep.vertices.last?.exploration == .notExplored)
        let wide = walk(first, limits: .init(objects: 5, depth: 100))
        #expect(wide.objectLimitReached)
        #expect(wide.vertices.filter { $0.exploration != .notExplored }.count == 5)
        #expect(walk(first).vertices.count == 11)
    }

    @Test("The walk holds a root only while it reads it: an object let go of meanwhile is freed at once")
    func rootsAreHeldOnlyWhileRead() {
        let holder = Chain()
        holder.next = Chain()
        weak var released: Chain?
        released = holder.next
        let first = WeakReference(holder.next!)
        var freedDuringTheWalk = false
        let result = HeapWalker(limits: .standard).walk(roots: [
            HeapWalker.Root(load: { first.object }),
            HeapWalker.Root(load: {
                holder.next = nil
                freedDuringTheWalk = released == nil
                return nil
            }),
        ])
        #expect(result.vertices.count == 1, "the first root was read")
        #expect(freedDuringTheWalk)
    }

    @Test("What a closure refers to weakly is walked too, without counting the walk's reference")
    func weakTargetsAreWalked() throws {
        let leaf = Leaf()
        let child = Chain()
        let closure = Stored { [weak child] (value: Int) in _ = child?.next; leaf.value = value }
        child.next = Chain()
        let result = walk(closure)
        let vertex = try #require(result.index[address(child)].map { result.vertices[$0] })
        #expect(vertex.retainCount == 1, "only this test's local holds it")
        let weak = try #require(result.edges.first { $0.to == result.index[address(child)] })
        #expect(weak.reference.isWeak, "the closure's weak reference is reported, as weak")
        #expect(references(from: child, in: result).map(\.path) == ["next"])
    }

    @Test("A closure's weak capture of an object freed since is counted on its context, with the object's class")
    func freedWeakCapturesAreNamed() throws {
        let leaf = Leaf()
        var child: Chain? = Chain()
        weak let gone = child
        let closure = Stored { [weak child] (value: Int) in _ = child?.next; leaf.value = value }
        child = nil
        // Ground truth: the weak capture's object is freed.
        #expect(gone == nil)
        let result = walk(closure)
        let freed = result.vertices.filter { $0.category == .closureContext }.flatMap(\.freedWeakCaptures)
        #expect(freed == [String(reflecting: Chain.self)], "\(freed)")
    }
}

extension HeapWalkerTests.Leaf {
    func set(_ value: Int) { self.value = value }
}
