import Foundation

/// The live pages' push channels: one ``LiveHub`` per traced process, so that a command that
/// starts several (`sh -c "A & B"`, `swift test`) shows each on a page of its own, each page
/// naming every process and linking to the others' (`{"kind":"processes",…}`). A page asks
/// for a process's with `?process=ID`; without one, or before that process has written
/// anything, it gets the first process's, ``main``, which exists before any process starts.
final class LiveHubs: PushChannel, @unchecked Sendable {
    /// The first traced process's hub, and the one pages that name no process follow.
    let main = LiveHub()
    private let lock = NSLock()
    private var hubs: [(process: String, hub: LiveHub)] = []
    private var pageHubs: [Int: LiveHub] = [:]
    private var wake: @Sendable () -> Void = {}

    /// The hub of `process`, made (or, for the first process, taken to be ``main``) on first use.
    func hub(for process: String) -> LiveHub {
        let (hub, isNew, wake) = lock.withLock {
            if let known = hubs.first(where: { $0.process == process }) { return (known.hub, false, self.wake) }
            let hub = hubs.isEmpty ? main : LiveHub()
            hubs.append((process, hub))
            return (hub, true, self.wake)
        }
        if isNew, hub !== main { hub.setWake(wake) }
        return hub
    }

    /// Every process's hub (``main`` when none has started), in the order they started.
    var all: [LiveHub] { lock.withLock { hubs.isEmpty ? [main] : hubs.map(\.hub) } }

    /// The processes, in the order they started.
    var processes: [String] { lock.withLock { hubs.map(\.process) } }

    /// Whether every page connected when the program ended has said it received the end.
    var everyPageHasTheEnd: Bool { all.allSatisfy(\.everyPageHasTheEnd) }

    // MARK: PushChannel (the server's thread)

    func setWake(_ wake: @escaping @Sendable () -> Void) {
        for hub in lock.withLock({ self.wake = wake; return hubs.map(\.hub) + [main] }) { hub.setWake(wake) }
    }

    func open(_ page: Int, topic: String?) {
        let hub = lock.withLock {
            let hub = topic.flatMap { process in hubs.first { $0.process == process }?.hub } ?? main
            pageHubs[page] = hub
            return hub
        }
        hub.open(page, topic: nil)
    }

    func frames(for page: Int, into output: inout [UInt8], limit: Int) -> Bool {
        guard let hub = lock.withLock({ pageHubs[page] }) else { return true }
        return hub.frames(for: page, into: &output, limit: limit)
    }

    func received(_ text: String, from page: Int) {
        lock.withLock { pageHubs[page] }?.received(text, from: page)
    }

    func closed(_ page: Int) {
        lock.withLock { pageHubs.removeValue(forKey: page) }?.closed(page)
    }
}
