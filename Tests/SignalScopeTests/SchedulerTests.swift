import Dispatch
import Foundation
import SignalScopeTools
import Synchronization
import Testing

@Suite("Schedulers", .timeLimit(.minutes(10)))
struct SchedulerTests {
    @Test("T1: the immediate scheduler runs actions at once, on the calling thread")
    func immediate() {
        let scheduler = ImmediateScheduler()
        let log = Log<String>()
        let disposable = scheduler.schedule { log.append("now") }
        log.append("after")
        #expect(log.items == ["now", "after"])
        #expect(disposable == nil)
    }

    @Test("T1: the immediate scheduler's schedule(after:) waits until the date")
    func immediateAfter() {
        let scheduler = ImmediateScheduler()
        let start = Date()
        var ran = false
        scheduler.schedule(after: start.addingTimeInterval(0.05)) { ran = true }
        #expect(ran)
        #expect(Date().timeIntervalSince(start) >= 0.05)
    }

    @Test("T2: a queue scheduler runs actions asynchronously, in order, on its queue")
    func queueOrder() async {
        let scheduler = QueueScheduler(label: "test.order")
        let log = Log<Int>()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            for value in 0..<100 { scheduler.schedule { log.append(value) } }
            scheduler.schedule { done.resume() }
        }
        #expect(log.items == Array(0..<100))
    }

    @Test("T2: disposing a queued action cancels it; schedule(after:) waits for its date")
    func queueCancelAndDelay() async {
        let scheduler = QueueScheduler(label: "test.cancel")
        let log = Log<String>()
        let start = Date()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let blocker = DispatchSemaphore(value: 0)
            scheduler.schedule { blocker.wait() }
            scheduler.schedule { log.append("cancelled") }?.dispose()
            scheduler.schedule(after: start.addingTimeInterval(0.05)) {
                log.append("delayed")
                done.resume()
            }
            blocker.signal()
        }
        #expect(log.items == ["delayed"])
        #expect(Date().timeIntervalSince(start) >= 0.05)
    }

    @Test("T2: a queue scheduler repeats an action until it is disposed")
    func queueRepeating() async {
        let scheduler = QueueScheduler(label: "test.repeat")
        let ticks = Counter()
        let stopped = Atomic<Bool>(false)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let timer = SerialDisposable()
            timer.inner = scheduler.schedule(after: Date(), interval: 0.01) {
                ticks.increment()
                if ticks.count == 3 {
                    timer.dispose()
                    stopped.store(true, ordering: .relaxed)
                    scheduler.schedule(afterDelay: 0.05) { done.resume() }
                }
            }
        }
        let didStop = stopped.load(ordering: .relaxed)
        #expect(didStop)
        #expect(ticks.count == 3)
    }

    @Test("T3: a test scheduler runs nothing until time moves, then runs in date order")
    func testSchedulerOrder() {
        let scheduler = TestScheduler()
        let start = scheduler.now
        let log = Log<String>()
        scheduler.schedule(after: start.addingTimeInterval(2)) { log.append("2s") }
        scheduler.schedule(after: start.addingTimeInterval(1)) { log.append("1s first") }
        scheduler.schedule(after: start.addingTimeInterval(1)) { log.append("1s second") }
        scheduler.schedule { log.append("now") }
        #expect(log.items.isEmpty)
        scheduler.advance(by: 0)
        #expect(log.items == ["now"])
        scheduler.advance(by: 1.5)
        #expect(log.items == ["now", "1s first", "1s second"])
        #expect(scheduler.now == start.addingTimeInterval(1.5))
        scheduler.run()
        #expect(log.items == ["now", "1s first", "1s second", "2s"])
        #expect(scheduler.now == start.addingTimeInterval(2))
    }

    @Test("T3: actions see now set to their own date")
    func testSchedulerNowDuringAction() {
        let scheduler = TestScheduler()
        let start = scheduler.now
        var seen: [TimeInterval] = []
        scheduler.schedule(afterDelay: 3) { seen.append(scheduler.now.timeIntervalSince(start)) }
        scheduler.advance(to: start.addingTimeInterval(10))
        #expect(seen == [3])
        #expect(scheduler.now == start.addingTimeInterval(10))
    }

    @Test("T3: repeating actions run at each interval until disposed; disposed actions never run")
    func testSchedulerRepeating() {
        let scheduler = TestScheduler()
        let start = scheduler.now
        var times: [TimeInterval] = []
        let timer = scheduler.schedule(after: start.addingTimeInterval(1), interval: 1) {
            times.append(scheduler.now.timeIntervalSince(start))
        }
        let cancelled = scheduler.schedule(afterDelay: 0.5) { times.append(-1) }
        cancelled?.dispose()
        scheduler.advance(by: 3.5)
        #expect(times == [1, 2, 3])
        timer?.dispose()
        scheduler.run()
        #expect(times == [1, 2, 3])
    }
}
