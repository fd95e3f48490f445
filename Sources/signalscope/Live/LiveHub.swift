import Foundation

/// What `signalscope live` pushes to its pages: to a page that connects, the timeline so far
/// and the latest graph (its starting state), then each message as it comes, and the end.
/// One JSON message each (``LiveReport``): `{"kind":"timeline",…}` adds to the timeline,
/// `{"kind":"graph",…}` replaces the graph and the findings, `{"kind":"warning","text":…}`
/// (the page no longer updates), `{"kind":"note","text":…}` (which traced process it follows),
/// `{"kind":"ended","status":N}` (the program ended; the final report is being made) and
/// `{"kind":"end","status":N}` (the final report is ready).
///
/// Every page reads the same messages, each from where it is: a page that reads slowly costs
/// a place in the list, never a copy of it. A page that connects after the end is sent the
/// end alone, which takes it to the final report.
final class LiveHub: PushChannel, @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [[UInt8]] = []
    /// The latest of the messages that replace what came before (the graph), and how many
    /// there have been.
    private var latest: [UInt8]?
    private var latestVersion = 0
    private var end: [UInt8]?
    private var pages: [Int: Page] = [:]
    /// The pages that have not yet said they received the end.
    private var awaitingEnd: Set<Int> = []
    private var wake: @Sendable () -> Void = {}

    /// Where a page is in the messages.
    private struct Page {
        var next = 0
        var latestVersion = 0
        var hasEnd = false
    }

    /// Sends `message` (a JSON object) to every page, and to pages that connect later.
    func publish(_ message: String) {
        let wake = lock.withLock {
            messages.append(Array(message.utf8))
            return self.wake
        }
        wake()
    }

    /// Sends `message`, which replaces whatever such message came before, to every page; a
    /// page that connects later gets only the latest.
    func publishLatest(_ message: String) {
        let wake = lock.withLock {
            latest = Array(message.utf8)
            latestVersion += 1
            return self.wake
        }
        wake()
    }

    /// Sends the end to every page, after what they have not read yet; later pages get it on
    /// connecting.
    func finish(_ message: String) {
        let wake = lock.withLock {
            end = Array(message.utf8)
            awaitingEnd = Set(pages.keys)
            return self.wake
        }
        wake()
    }

    /// Whether every page connected when the program ended has said it received the end.
    var everyPageHasTheEnd: Bool { lock.withLock { end != nil && awaitingEnd.isEmpty } }

    // MARK: PushChannel (the server's thread)

    func setWake(_ wake: @escaping @Sendable () -> Void) { lock.withLock { self.wake = wake } }

    func open(_ page: Int) {
        lock.withLock {
            if end != nil {
                pages[page] = Page(next: messages.count, latestVersion: latestVersion)
                awaitingEnd.insert(page)
            } else {
                pages[page] = Page()
            }
        }
    }

    func frames(for page: Int, into output: inout [UInt8], limit: Int) {
        lock.withLock {
            guard var state = pages[page] else { return }
            defer { pages[page] = state }
            while state.next < messages.count, output.count < limit {
                WebSocket.appendFrame(.text, payload: messages[state.next], to: &output)
                state.next += 1
            }
            guard state.next == messages.count else { return }
            if state.latestVersion < latestVersion, let latest {
                WebSocket.appendFrame(.text, payload: latest, to: &output)
                state.latestVersion = latestVersion
            }
            if let end, !state.hasEnd {
                WebSocket.appendFrame(.text, payload: end, to: &output)
                state.hasEnd = true
            }
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
