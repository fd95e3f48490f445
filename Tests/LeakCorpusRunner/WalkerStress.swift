import Foundation
import SignalScopeTools
import Synchronization

/// The closing heap walk while the program does not stand still: each recording makes
/// objects with weak and strong captures and frees most of them, plants one leak, and stops
/// (its snapshot walks the heap) while eight threads make and free objects of their own,
/// subscribe to subjects the recordings use too, and send on them. Every recording must
/// report exactly its planted leak: nothing about an object freed before the snapshot,
/// nothing about the other threads' objects, no limitation; and the process must not crash
/// (run under AddressSanitizer, a read of freed memory would).
enum WalkerStress {
    final class Model {
        var value = 0
        var onChange: (() -> Void)?
        weak var peer: Model?
    }

    /// The planted leak: its observer captures it, and it keeps the subject.
    final class Leaky {
        let ticks = Subject<Int>()
        var count = 0

        func start() { ticks.subscribeNext { _ in self.count += 1 } }
    }

    final class Flag: Sendable {
        private let raised = Atomic<Bool>(false)
        var isRaised: Bool { raised.load(ordering: .relaxed) }
        func raise() { raised.store(true, ordering: .relaxed) }
    }

    static let shared = (0..<8).map { _ in Subject<Int>() }

    static func run(recordings: Int) -> Bool {
        let stop = Flag()
        let workers = (0..<8).map { index in Thread { churn(index, until: stop) } }
        for worker in workers { worker.start() }
        var failures = 0
        var pauses: [Duration] = []
        let clock = ContinuousClock()
        for round in 0..<recordings {
            weak var planted: Leaky?
            var ended = clock.now
            let trace = Tracer.record {
                for index in 0..<20 {
                    let model = Model()
                    let other = Model()
                    model.onChange = { [weak other] in other?.value += 1 }
                    other.peer = model
                    other.onChange = { model.value += index }
                    shared[(round + index) % shared.count].subscribeNext { [weak model] in model?.value = $0 }.dispose()
                }
                let leak = Leaky()
                leak.start()
                planted = leak
                ended = clock.now
            }
            pauses.append(clock.now - ended)
            let report = trace.analyze()
            let found = report.findings.map { "\($0.rule) \($0.subject.name)" }
            guard planted != nil, found == ["self-captured-observer Leaky"], report.limitations.isEmpty else {
                failures += 1
                print("recording \(round): planted leak alive: \(planted != nil); findings: \(found); limitations: \(report.limitations)")
                if ProcessInfo.processInfo.environment["STRESS_DEBUG"] != nil {
                    for object in trace.heap.objects.values.sorted(by: { $0.id < $1.id }) {
                        let into = trace.heap.references.filter { $0.to == object.id }
                        print("  \(object.id) \(object.typeName) rc=\(object.retainCount) in=\(into.map { "\($0.from)\($0.isExact ? "" : "?")\($0.isWeak ? "w" : "")" }) \(object.role.map { "\($0)" } ?? "") \(object.allocation)")
                    }
                }
                continue
            }
        }
        stop.raise()
        while workers.contains(where: { !$0.isFinished }) { usleep(1_000) }
        pauses.sort()
        print("stress: \(recordings) recordings while 8 threads made and freed objects: \(failures) wrong; "
            + "time from the body's end to the trace, median \(pauses[pauses.count / 2]), longest \(pauses.last!)")
        return failures == 0
    }

    private static func churn(_ index: Int, until stop: Flag) {
        var kept: [Model] = []
        var round = 0
        while !stop.isRaised {
            let model = Model()
            let peer = Model()
            model.onChange = { peer.value += 1 }
            peer.peer = model
            let subscription = shared[index].subscribeNext { [weak model] in model?.value = $0 }
            shared[(index + 1) % shared.count].sendNext(round)
            kept.append(model)
            if kept.count > 64 { kept.removeFirst(32) }
            subscription.dispose()
            round += 1
        }
    }
}
