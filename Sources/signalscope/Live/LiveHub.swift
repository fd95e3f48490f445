import Foundation
import Synchronization

/// What `signalscope live` pushes to its pages: to a page that connects, the timeline so far
/// and the latest graph (its starting state), then each message as it comes, and the end.
/// One JSON message each (``LiveReport``): `{"kind":"timeline",…}` adds to the timeline,
/// `{"kind":"graph",…}` replaces the graph and the findings, `{"kind":"warning","text":…}`
/// (the page no longer updates), `{"kind":"processes",…}` (every traced process, each with a
/// page of its own: ``LiveHubs``), `{"kind":"ended","status":N}` (the program ended; the final report is being made) and
/// `{"kind":"end","status":N}` (the final report is ready).
///
/// Every page reads the same messages, each from where it is: a page that reads slowly costs
/// a place in the list, never a copy of it. Once the messages since the last checkpoint pass
/// ``windowBytes``, ``checkpoint(_:)`` marks the state they led to
/// (``LiveReport/stateMessage()``): a page that connects later starts from the latest
/// checkpoint's state and the messages after it, and the messages before the one before it
/// are let go of. So a page may fall a whole window behind and catch up; one further behind
/// is closed (it reloads, and starts from the state). A page that connects after the end is
/// sent the end alone, which takes it to the final report.
final class LiveHub: Sendable {
    /// The messages between two checkpoints, in bytes.
    static let windowBytes = 4 << 20
    private let state = Mutex(State())

    private struct State {
        /// The messages kept; `firstMessage` is the first one's number.
        var messages: [[UInt8]] = []
        var firstMessage = 0
        /// The bytes of the messages since the latest checkpoint.
        var messageBytes = 0
        /// The latest two checkpoints: the message number each was taken at, and the state then.
        var checkpoints: [(message: Int, state: [UInt8])] = []
        /// The messages that each replace the one of their kind before (the graph, the list
        /// of traced processes), by kind, with how many of that kind there have been.
        var latest: [String: (version: Int, message: [UInt8])] = [:]
        var end: [UInt8]?
        var pages: [Int: Page] = [:]
        /// The pages that have not yet said they received the end.
        var awaitingEnd: Set<Int> = []
        var wake: @Sendable () -> Void = {}
    }

    /// Where a page is in the messages (`next`: a message number).
    private struct Page {
        var next = 0
        /// For each kind of ``State/latest`` message, the version it has.
        var versions: [String: Int] = [:]
        var hasEnd = false
        /// The checkpoint's state it starts from, still to be sent.
        var state: [UInt8]?
    }

    /// Runs `change` with the lock held, then wakes the server: pages may have frames due.
    private func changing(_ change: (inout State) -> Void) {
        let wake = state.withLock { state in
            change(&state)
            return state.wake
        }
        wake()
    }

    /// Sends `message` (a JSON object) to every page, and to pages that connect later.
    func publish(_ message: String) {
        changing { state in
            state.messages.append(Array(message.utf8))
            state.messageBytes += message.utf8.count
        }
    }

    /// Whether the messages since the latest checkpoint have passed ``windowBytes``: time
    /// for a ``checkpoint(_:)``.
    var isWindowFull: Bool { state.withLock { $0.messageBytes > Self.windowBytes } }

    /// Marks `checkpoint` as what every message so far led to, and lets go of the messages
    /// before the checkpoint before this one.
    func checkpoint(_ checkpoint: String) {
        changing { state in
            state.checkpoints.append((state.firstMessage + state.messages.count, Array(checkpoint.utf8)))
            if state.checkpoints.count > 2 { state.checkpoints.removeFirst() }
            // Kept: everything after the older of the two checkpoints (all, after the first).
            let keepFrom = state.checkpoints.count == 2 ? state.checkpoints[0].message : state.firstMessage
            state.messages.removeFirst(keepFrom - state.firstMessage)
            state.firstMessage = keepFrom
            state.messageBytes = 0
        }
    }

    /// Sends `message`, which replaces whatever message of its kind (`replacing`) came
    /// before, to every page; a page that connects later gets only the latest.
    func publishLatest(_ message: String, replacing kind: String) {
        changing { state in
            state.latest[kind] = ((state.latest[kind]?.version ?? 0) + 1, Array(message.utf8))
        }
    }

    /// Sends the end to every page, after what they have not read yet; later pages get it on
    /// connecting.
    func finish(_ message: String) {
        changing { state in
            state.end = Array(message.utf8)
            state.awaitingEnd = Set(state.pages.keys)
        }
    }

    /// Whether every page connected when the program ended has said it received the end.
    var everyPageHasTheEnd: Bool { state.withLock { $0.end != nil && $0.awaitingEnd.isEmpty } }

    // MARK: Pages (the server's thread, through ``LiveHubs``)

    func setWake(_ wake: @escaping @Sendable () -> Void) { state.withLock { $0.wake = wake } }

    func open(_ page: Int) {
        state.withLock { state in
            let now = state.firstMessage + state.messages.count
            if state.end != nil {
                state.pages[page] = Page(next: now, versions: state.latest.mapValues(\.version))
                state.awaitingEnd.insert(page)
            } else if let latest = state.checkpoints.last {
                state.pages[page] = Page(next: latest.message, state: latest.state)
            } else {
                state.pages[page] = Page(next: state.firstMessage)
            }
        }
    }

    func frames(for page: Int, into output: inout [UInt8], limit: Int) -> Bool {
        state.withLock { state in
            guard var position = state.pages[page] else { return true }
            defer { state.pages[page] = position }
            if let start = position.state {
                WebSocket.appendFrame(.text, payload: start, to: &output)
                position.state = nil
            }
            // Its messages were let go of: it reloads, and starts from the state.
            guard position.next >= state.firstMessage else { return false }
            let count = state.firstMessage + state.messages.count
            while position.next < count, output.count < limit {
                WebSocket.appendFrame(.text, payload: state.messages[position.next - state.firstMessage], to: &output)
                position.next += 1
            }
            guard position.next == count else { return true }
            for (kind, slot) in state.latest.sorted(by: { $0.key < $1.key }) where position.versions[kind, default: 0] < slot.version {
                WebSocket.appendFrame(.text, payload: slot.message, to: &output)
                position.versions[kind] = slot.version
            }
            if let end = state.end, !position.hasEnd {
                WebSocket.appendFrame(.text, payload: end, to: &output)
                position.hasEnd = true
            }
            return true
        }
    }

    func received(_ text: String, from page: Int) {
        if text == "received end" { _ = state.withLock { $0.awaitingEnd.remove(page) } }
    }

    func closed(_ page: Int) {
        state.withLock { state in
            state.pages[page] = nil
            state.awaitingEnd.remove(page)
        }
    }
}
