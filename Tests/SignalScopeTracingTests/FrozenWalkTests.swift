import SignalScopeTools
import Testing
@testable import SignalScopeHeap

/// The walk in a copy of the process (`FrozenWalk`) and what the program keeps of it.
@Suite("The walk in a copy of the process", .timeLimit(.minutes(10)))
struct FrozenWalkTests {
    /// Made only here: no walk before this test's has met its metadata.
    final class MetOnlyHere {
        var label = "only here"
    }

    @Test("The metadata a walk in the copy decoded is decoded in the program too, so that the next copy starts with it")
    func copyTeachesTheProgram() {
        let metadata = unsafeBitCast(MetOnlyHere.self, to: UInt.self)
        #expect(!HeapObjectKind.decoded.contains(metadata), "nothing decoded it before")
        var kept: MetOnlyHere?
        let trace = Tracer.record { kept = MetOnlyHere() }
        #expect(trace.heap.objects.values.contains { $0.typeName.hasSuffix("MetOnlyHere") }, "the walk met it")
        #expect(HeapObjectKind.decoded.contains(metadata), "the program learnt it from the copy")
        withExtendedLifetime(kept) {}
    }
}
