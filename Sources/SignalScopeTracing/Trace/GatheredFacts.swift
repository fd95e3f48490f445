/// The facts a trace gathers while it is read (``TraceFacts``), each in a box of its own that
/// a record changes in place.
///
/// Held as `[any TraceFact]`, a fact was changed through its existential once per record it
/// follows: the existential's box checked unique (about 50 instructions), and the trace it
/// is shown copied (248 bytes), because the trace was being changed around the call. A box
/// of its own is changed through a reference, so the trace shows a record to its facts from
/// a method that does not change the trace. The facts are still values: a copy of the trace
/// (a growing trace's view, a restricted one) shares the boxes until one of the two takes a
/// record, which first gives it boxes of its own (``makeUnique()``).
struct GatheredFacts: @unchecked Sendable {
    // @unchecked: the boxes are changed only through a value that holds them alone
    // (`makeUnique()` before `observe(_:kind:in:)` and `finish(in:)`), as a copy-on-write
    // value is; a copy never sees the other's changes.

    private final class Storage {
        let boxes: [any FactBox]
        init(_ boxes: [any FactBox]) { self.boxes = boxes }
    }

    private var storage: Storage
    /// The kinds each fact follows, in their order.
    private let kinds: [TraceEvent.Kinds]
    /// The kinds any of them follows: a record of another kind skips them all.
    let followed: TraceEvent.Kinds

    init(_ types: [any TraceFact.Type]) {
        self.init(boxes: types.map { $0.boxed() })
    }

    private init(boxes: [any FactBox]) {
        storage = Storage(boxes)
        kinds = boxes.map { $0.follows }
        followed = kinds.reduce([]) { $0.union($1) }
    }

    /// The facts, as values.
    var all: [any TraceFact] { storage.boxes.map(\.fact) }

    /// Gives this value boxes of its own if a copy shares them.
    mutating func makeUnique() {
        guard !isKnownUniquelyReferenced(&storage) else { return }
        storage = Storage(storage.boxes.map { $0.copy() })
    }

    /// Shows `record`, of `kind`, to the facts that follow its kind. Call ``makeUnique()``
    /// first: the boxes change in place.
    func observe(_ record: TraceRecord, kind: TraceEvent.Kinds, in trace: Trace) {
        let boxes = storage.boxes
        for index in boxes.indices where kinds[index].contains(kind) { boxes[index].observe(record, in: trace) }
    }

    /// Concludes every fact. Call ``makeUnique()`` first.
    func finish(in trace: Trace) {
        for box in storage.boxes { box.finish(in: trace) }
    }

    /// What of them concerns the part of the trace that `trace` keeps.
    func restricted(to trace: Trace) -> GatheredFacts {
        GatheredFacts(boxes: storage.boxes.map { $0.restricted(to: trace) })
    }
}

/// One fact, changed in place.
private protocol FactBox: AnyObject {
    var fact: any TraceFact { get }
    var follows: TraceEvent.Kinds { get }
    func observe(_ record: TraceRecord, in trace: Trace)
    func finish(in trace: Trace)
    func copy() -> any FactBox
    func restricted(to trace: Trace) -> any FactBox
}

private final class TypedFactBox<Fact: TraceFact>: FactBox {
    /// Changed only by ``GatheredFacts``, one record at a time, so it needs no exclusivity
    /// check (a dynamic one per record otherwise, about 117 instructions).
    @exclusivity(unchecked) var value: Fact

    init(_ value: Fact) { self.value = value }

    var fact: any TraceFact { value }
    var follows: TraceEvent.Kinds { Fact.follows }
    func observe(_ record: TraceRecord, in trace: Trace) { value.observe(record, in: trace) }
    func finish(in trace: Trace) { value.finish(in: trace) }
    func copy() -> any FactBox { TypedFactBox(value) }
    func restricted(to trace: Trace) -> any FactBox { TypedFactBox(value.restricted(to: trace)) }
}

extension TraceFact {
    /// A new fact of this type, in a box of its own.
    fileprivate static func boxed() -> any FactBox { TypedFactBox(Self()) }
}
