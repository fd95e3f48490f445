import Foundation
import Synchronization

/// The live pages' push channels: one ``LiveHub`` per traced process, so that a command that
/// starts several (`sh -c "A & B"`, `swift test`) shows each on a page of its own, each page
/// naming every process and linking to the others' (`{"kind":"processes",…}`). A page asks
/// for a process's with `?process=ID`; without one, or before that process has written
/// anything, it gets the first process's, ``main``, which exists before any process starts.
final class LiveHubs: PushChannel, Sendable {
    /// The first traced process's hub, and the one pages that name no process follow.
    let main = LiveHub()
    private let state = Mutex(State())

    private struct State {
        var hubs: [(process: String, hub: LiveHub)] = []
        var pageHubs: [Int: LiveHub] = [:]
        var wake: @Sendable () -> Void = {}
    }

    /// The hub of `process`, made (or, for the first process, taken to be ``main``) on first use.
    func hub(for process: String) -> LiveHub {
        let (hub, wake) = state.withLock { state -> (LiveHub, (@Sendable () -> Void)?) in
            if let known = state.hubs.first(where: { $0.process == process }) { return (known.hub, nil) }
            let hub = state.hubs.isEmpty ? main : LiveHub()
            state.hubs.append((process, hub))
            return (hub, hub === main ? nil : state.wake)
        }
        // A new hub wakes the server as the others do.
        if let wake { hub.setWake(wake) }
        return hub
    }

    /// Every process's hub (``main`` when none has started), in the order they started.
    var all: [LiveHub] { state.withLock { $0.hubs.isEmpty ? [main] : $0.hubs.map(\.hub) } }

    /// The processes, in the order they started.
    var processes: [String] { state.withLock { $0.hubs.map(\.process) } }

    /// Whether every page connected when the program ended has said it received the end.
    var everyPageHasTheEnd: Bool { all.allSatisfy(\.everyPageHasTheEnd) }

    // MARK: PushChannel (the server's thread)

    func setWake(_ wake: @escaping @Sendable () -> Void) {
        let hubs = state.withLock { state in
            state.wake = wake
            return state.hubs.map(\.hub)
        }
        main.setWake(wake)
        for hub in hubs where hub !== main { hub.setWake(wake) }
    }

    func open(_ page: Int, topic: String?) {
        let hub = state.withLock { state in
            let hub = topic.flatMap { process in state.hubs.first { $0.process == process }?.hub } ?? main
            state.pageHubs[page] = hub
            return hub
        }
        hub.open(page)
    }

    func frames(for page: Int, into output: inout [UInt8], limit: Int) -> Bool {
        guard let hub = state.withLock({ $0.pageHubs[page] }) else { return true }
        return hub.frames(for: page, into: &output, limit: limit)
    }

    func received(_ text: String, from page: Int) {
        state.withLock { $0.pageHubs[page] }?.received(text, from: page)
    }

    func closed(_ page: Int) {
        state.withLock { $0.pageHubs.removeValue(forKey: page) }?.closed(page)
    }
}
