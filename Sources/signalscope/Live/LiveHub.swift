import Foundation

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
final class LiveHub: PushChannel, @unchecked Sendable {
    /// The messages between two checkpoints, in bytes.
    static let windowBytes = 4 << 20
    private let lock = NSLock()
    /// The messages kept; `firstMessage` is the first one's number.
    private var messages: [[UInt8]] = []
    private var firstMessage = 0
    /// The bytes of the messages since the latest checkpoint.
    private var messageBytes = 0
    /// The latest two checkpoints: the message number each was taken at, and the state then.
    private var checkpoints: [(message: Int, state: [UInt8])] = []
    /// The messages that each replace the one of their kind before (the graph, the list of
    /// traced processes), by kind, with how many of that kind there have been.
    private var latest: [String: (version: Int, message: [UInt8])] = [:]
    private var end: [UInt8]?
    private var pages: [Int: Page] = [:]
    /// The pages that have not yet said they received the end.
    private var awaitingEnd: Set<Int> = []
    private var wake: @Sendable () -> Void = {}

    /// Where a page is in the messages (`next`: a message number).
    private struct Page {
        var next = 0
        /// For each kind of ``latest`` message, the version it has.
        var versions: [String: Int] = [:]
        var hasEnd = false
        /// The checkpoint's state it starts from, still to be sent.
        var state: [UInt8]?
    }

    /// Runs `change` with the lock held, then wakes the server: pages may have frames due.
    private func changing(_ change: () -> Void) {
        let wake = lock.withLock {
            change()
            return self.wake
        }
        wake()
    }

    /// Sends `message` (a JSON object) to every page, and to pages that connect later.
    func publish(_ message: String) {
        changing {
            messages.append(Array(message.utf8))
            messageBytes += message.utf8.count
        }
    }

    /// Whether the messages since the latest checkpoint have passed ``windowBytes``: time
    /// for a ``checkpoint(_:)``.
    var isWindowFull: Bool { lock.withLock { messageBytes > Self.windowBytes } }

    /// Marks `state` as what every message so far led to, and lets go of the messages before
    /// the checkpoint before this one.
    func checkpoint(_ state: String) {
        changing {
            checkpoints.append((firstMessage + messages.count, Array(state.utf8)))
            if checkpoints.count > 2 { checkpoints.removeFirst() }
            // Kept: everything after the older of the two checkpoints (all, after the first).
            let keepFrom = checkpoints.count == 2 ? checkpoints[0].message : firstMessage
            messages.removeFirst(keepFrom - firstMessage)
            firstMessage = keepFrom
            messageBytes = 0
        }
    }

    /// Sends `message`, which replaces whatever message of its kind (`replacing`) came
    /// before, to every page; a page that connects later gets only the latest.
    func publishLatest(_ message: String, replacing kind: String) {
        changing {
            latest[kind] = ((latest[kind]?.version ?? 0) + 1, Array(message.utf8))
        }
    }

    /// Sends the end to every page, after what they have not read yet; later pages get it on
    /// connecting.
    func finish(_ message: String) {
        changing {
            end = Array(message.utf8)
            awaitingEnd = Set(pages.keys)
        }
    }

    /// Whether every page connected when the program ended has said it received the end.
    var everyPageHasTheEnd: Bool { lock.withLock { end != nil && awaitingEnd.isEmpty } }

    // MARK: PushChannel (the server's thread)

    func setWake(_ wake: @escaping @Sendable () -> Void) { lock.withLock { self.wake = wake } }

    func open(_ page: Int, topic: String?) {
        lock.withLock {
            let now = firstMessage + messages.count
            if end != nil {
                pages[page] = Page(next: now, versions: latest.mapValues(\.version))
                awaitingEnd.insert(page)
            } else if let latest = checkpoints.last {
                pages[page] = Page(next: latest.message, state: latest.state)
            } else {
                pages[page] = Page(next: firstMessage)
            }
        }
    }

    func frames(for page: Int, into output: inout [UInt8], limit: Int) -> Bool {
        lock.withLock {
            guard var state = pages[page] else { return true }
            defer { pages[page] = state }
            if let start = state.state {
                WebSocket.appendFrame(.text, payload: start, to: &output)
                state.state = nil
            }
            // Its messages were let go of: it reloads, and starts from the state.
            guard state.next >= firstMessage else { return false }
            let count = firstMessage + messages.count
            while state.next < count, output.count < limit {
                WebSocket.appendFrame(.text, payload: messages[state.next - firstMessage], to: &output)
                state.next += 1
            }
            guard state.next == count else { return true }
            for (kind, slot) in latest.sorted(by: { $0.key < $1.key }) where state.versions[kind, default: 0] < slot.version {
                WebSocket.appendFrame(.text, payload: slot.message, to: &output)
                state.versions[kind] = slot.version
            }
            if let end, !state.hasEnd {
                WebSocket.appendFrame(.text, payload: end, to: &output)
                state.hasEnd = true
            }
            return true
        }
    }

    func received(_ text: String, from page: Int) {
        if text == "received end" { _ = lock.withLock { awaitingEnd.remove(page) } }
    }

    func closed(_ page: Int) {
        lock.withLock {
            pages[page] = nil
            awaitingEnd.remove(page)
        }
    }
}
