import FlyingFox
import Foundation

/// What `signalscope live` pushes to its pages: to a page that connects, the timeline so far
/// and the latest graph (its starting state), then each message as it comes, and the end.
/// One JSON message each (``LiveReport``): `{"kind":"timeline",…}` adds to the timeline,
/// `{"kind":"graph",…}` replaces the graph and the findings, `{"kind":"warning","text":…}`,
/// `{"kind":"end","status":N}`.
actor LiveHub {
    private var backlog: [String] = []
    /// The latest of the messages that replace what came before (the graph).
    private var latest: String?
    private var clients: [UUID: AsyncStream<WSMessage>.Continuation] = [:]
    private var end: String?
    /// The pages that have not yet said they received the end.
    private var awaitingEnd: Set<UUID> = []

    /// A new page's messages: what happened so far, then what happens.
    func connect(incoming: AsyncStream<WSMessage>) -> AsyncStream<WSMessage> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<WSMessage>.makeStream()
        for message in backlog { continuation.yield(.text(message)) }
        if let latest { continuation.yield(.text(latest)) }
        if let end {
            continuation.yield(.text(end))
        }
        clients[id] = continuation
        if end != nil { awaitingEnd.insert(id) }
        continuation.onTermination = { [weak self] _ in Task { await self?.disconnect(id) } }
        Task { [weak self] in
            for await message in incoming {
                if case .text("received end") = message { await self?.receivedEnd(id) }
            }
            await self?.disconnect(id)
        }
        return stream
    }

    /// Sends `message` (a JSON object) to every page, and to pages that connect later.
    func publish(_ message: String) {
        backlog.append(message)
        for continuation in clients.values { continuation.yield(.text(message)) }
    }

    /// Sends `message`, which replaces whatever such message came before, to every page; a
    /// page that connects later gets only the latest.
    func publishLatest(_ message: String) {
        latest = message
        for continuation in clients.values { continuation.yield(.text(message)) }
    }

    /// Sends the end to every page; later pages get it on connecting.
    func finish(_ message: String) {
        end = message
        awaitingEnd = Set(clients.keys)
        for continuation in clients.values { continuation.yield(.text(message)) }
    }

    /// Whether every page connected when the program ended has said it received the end.
    var everyPageHasTheEnd: Bool { end != nil && awaitingEnd.isEmpty }

    private func receivedEnd(_ id: UUID) { awaitingEnd.remove(id) }

    private func disconnect(_ id: UUID) {
        clients[id] = nil
        awaitingEnd.remove(id)
    }
}

/// Hands each WebSocket connection to the hub.
struct LiveMessages: WSMessageHandler {
    let hub: LiveHub

    func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
        await hub.connect(incoming: client)
    }
}
