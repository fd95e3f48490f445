// The live page's HTTP and WebSocket server: one thread, non-blocking sockets and poll(2).
//
// It replaced FlyingFox, which read a request's line and headers byte by byte with no limit,
// in quadratic time, on Swift's cooperative threads (four 48 KiB headers stalled every page
// for 40 seconds), ended its accept loop for good on one EMFILE, merged repeated headers
// before a handler could see them, and kept a full copy of the stream for a WebSocket client
// that never read. None of that could be configured. Hummingbird could be, but brings
// SwiftNIO and minutes to every fresh build of the tool, for a server of three routes on the
// loopback address. Here every limit is in one place (``Limits``) and no request can cost
// more than linear time in bytes the server has capped.
import Foundation
import Glibc
import Synchronization

/// What the server answers a request with.
enum HTTPAnswer {
    /// A body held in memory.
    case body(HTTPStatus, headers: [(String, String)], [UInt8])
    /// A file's contents, read as the socket takes them (the final report can be large).
    case file(HTTPStatus, headers: [(String, String)], path: String)
    /// A WebSocket handshake accepted: the connection becomes one of ``PushChannel``'s pages.
    case webSocket(key: String, headers: [(String, String)])
}

/// What the server's WebSocket connections carry: each page's frames come from here, on the
/// server's thread, as its socket can take them.
protocol PushChannel: AnyObject, Sendable {
    /// Called with a function that wakes the server when new frames are due.
    func setWake(_ wake: @escaping @Sendable () -> Void)
    /// A page connected; `topic` is what it asked for (its `process` query), if anything.
    func open(_ page: Int, topic: String?)
    /// Appends the frames due to `page` to `output`, stopping once it holds `limit` bytes;
    /// `false` when the page has fallen too far behind to be caught up (it is closed with
    /// code 4000, on which it reloads).
    func frames(for page: Int, into output: inout [UInt8], limit: Int) -> Bool
    func received(_ text: String, from page: Int)
    func closed(_ page: Int)
}

final class LiveHTTPServer: @unchecked Sendable {
    /// Every limit the server keeps.
    struct Limits {
        /// A request line and its headers, together.
        var headBytes = 8 * 1024
        /// From a connection's first byte, or the end of its last answer, to the end of a
        /// request's head.
        var headSeconds = 10.0
        /// Without the client taking any byte of an answer or a push.
        var writeSeconds = 30.0
        /// Frames queued for one page beyond what its socket holds: a page that stops reading
        /// costs this much, not a copy of the stream.
        var pushBytes = 256 * 1024
        /// The largest frame a page may send (it sends a few words).
        var frameBytes = 4 * 1024
        /// Connections at once: half the file descriptors the process may open, less a
        /// reserve for the rest of signalscope, at most 512.
        var connections = Limits.connectionsForFileLimit()
        /// After the system refused a connection for lack of descriptors or memory.
        var acceptPauseSeconds = 0.1

        static func connectionsForFileLimit() -> Int {
            var limit = rlimit()
            guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return 512 }
            return max(4, min(512, Int(limit.rlim_cur) / 2 - 16))
        }
    }

    private let limits: Limits
    private let answer: (HTTPRequestHead) -> HTTPAnswer
    private let channel: any PushChannel
    /// Said once, on stderr, if the server has to stop before it is asked to.
    private let onFailure: @Sendable (String) -> Void
    private let listener: Int32
    /// A pipe whose reading end the loop polls: written to when pages have frames due or the
    /// server is to stop.
    private let wakeReader: Int32
    private let wakeWriter: Int32
    let port: UInt16
    private let stopping = Mutex(false)
    /// The loop, on a thread of its own (it blocks in `poll`), while it serves.
    private let serving = Mutex<Task<Void, Never>?>(nil)

    private var connections: [Connection] = []
    private var nextID = 0
    private var acceptPausedUntil = 0.0
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)

    /// Listens on 127.0.0.1:`port` (0: any free port); throws a one-line reason when it cannot.
    init(
        port: UInt16, limits: Limits = Limits(), channel: any PushChannel,
        onFailure: @escaping @Sendable (String) -> Void, answer: @escaping (HTTPRequestHead) -> HTTPAnswer
    ) throws {
        self.limits = limits
        self.answer = answer
        self.channel = channel
        self.onFailure = onFailure
        let socketType = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let descriptor = socket(AF_INET, socketType, 0)
        guard descriptor >= 0 else { throw CLIError("cannot serve the live page on 127.0.0.1:\(port): \(Self.errorText())") }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 128) == 0 else {
            let reason = Self.errorText()
            close(descriptor)
            throw CLIError("cannot serve the live page on 127.0.0.1:\(port): \(reason)")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        listener = descriptor
        self.port = UInt16(bigEndian: address.sin_port)
        var pair: [Int32] = [-1, -1]
        guard pipe(&pair) == 0 else {
            close(descriptor)
            throw CLIError("cannot serve the live page: \(Self.errorText())")
        }
        for end in pair { Self.makeNonBlocking(end) }
        (wakeReader, wakeWriter) = (pair[0], pair[1])
    }

    /// Serves on a thread of its own until ``stop()``.
    func start() {
        let wakeWriter = wakeWriter
        channel.setWake { Self.wake(wakeWriter) }
        let task = Task { [self] in await Blocking.run { [self] in serve() } }
        serving.withLock { $0 = task }
    }

    /// Closes every connection and the listening socket, once the loop has ended.
    func stop() async {
        let task = serving.withLock { serving in
            defer { serving = nil }
            return serving
        }
        guard let task, !stopping.withLock({ stopping in
            defer { stopping = true }
            return stopping
        }) else { return }
        Self.wake(wakeWriter)
        await task.value
    }

    /// A full pipe already wakes the loop: a failed write loses nothing.
    private static func wake(_ writer: Int32) {
        var one: UInt8 = 1
        _ = write(writer, &one, 1)
    }

    private static func makeNonBlocking(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }

    // MARK: The loop

    private func serve() {
        defer {
            for connection in connections { drop(connection) }
            connections = []
            close(listener)
            close(wakeReader)
            close(wakeWriter)
        }
        var descriptors: [pollfd] = []
        while !stopping.withLock({ $0 }) {
            let now = Self.now()
            for connection in connections where connection.phase == .push && connection.pendingBytes == 0 {
                refill(connection)
            }
            descriptors.removeAll(keepingCapacity: true)
            descriptors.append(pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0))
            descriptors.append(pollfd(fd: listener, events: now >= acceptPausedUntil ? Int16(POLLIN) : 0, revents: 0))
            for connection in connections {
                descriptors.append(pollfd(fd: connection.descriptor, events: connection.events, revents: 0))
            }
            let nearest = connections.map(\.deadline).min() ?? .infinity
            let until = min(nearest, now < acceptPausedUntil ? acceptPausedUntil : .infinity)
            let timeout = until.isFinite ? Int32(max(0, min(60_000, (until - now) * 1000 + 1))) : 60_000
            if poll(&descriptors, nfds_t(descriptors.count), timeout) < 0 {
                guard errno == EINTR || errno == EAGAIN else {
                    onFailure("the live page's server stopped: \(Self.errorText()); the program runs on and its trace is kept")
                    return
                }
                continue
            }
            if descriptors[0].revents != 0 {
                _ = scratch.withUnsafeMutableBytes { read(wakeReader, $0.baseAddress, $0.count) }
            }
            let listening = descriptors[1].revents
            if listening & Int16(POLLNVAL | POLLERR) != 0 {
                onFailure("the live page's server stopped: its socket failed; the program runs on and its trace is kept")
                return
            }
            // Connections accepted below are polled from the next round on.
            let polled = connections
            for (index, connection) in polled.enumerated() where !connection.isClosed {
                let events = descriptors[index + 2].revents
                if events & Int16(POLLIN | POLLHUP | POLLERR) != 0 { readable(connection) }
                if !connection.isClosed, events & Int16(POLLOUT) != 0 { writable(connection) }
            }
            if listening & Int16(POLLIN) != 0 { acceptWaiting() }
            let later = Self.now()
            for connection in connections where !connection.isClosed && connection.deadline <= later { drop(connection) }
            connections.removeAll { $0.isClosed }
        }
    }

    // MARK: Accepting

    private func acceptWaiting() {
        for _ in 0..<64 {
            let descriptor = accept(listener, nil, nil)
            if descriptor >= 0 {
                Self.makeNonBlocking(descriptor)
                admit(descriptor)
                continue
            }
            switch errno {
            case EINTR, ECONNABORTED, EPROTO, EPERM:
                continue
            case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                // Out of descriptors or memory: free the connection least likely to be a page,
                // and let the next round try again after a pause rather than spin.
                if let idle = evictable() { drop(idle) }
                acceptPausedUntil = Self.now() + limits.acceptPauseSeconds
                return
            default:
                return
            }
        }
    }

    private func admit(_ descriptor: Int32) {
        var noDelay: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        if connections.lazy.filter({ !$0.isClosed }).count >= limits.connections {
            guard let idle = evictable() else {
                close(descriptor)
                return
            }
            drop(idle)
        }
        nextID += 1
        connections.append(Connection(descriptor: descriptor, id: nextID, deadline: Self.now() + limits.headSeconds))
    }

    /// The oldest connection that has sent nothing of a request yet, else the oldest still
    /// sending one: at the cap, a new connection takes its place (a page's requests come
    /// whole at once; connections held open without a request are what a flood is made of).
    private func evictable() -> Connection? {
        let waiting = connections.filter { !$0.isClosed && $0.phase == .head }
        return waiting.first { $0.input.isEmpty } ?? waiting.first
    }

    // MARK: Reading

    private func readable(_ connection: Connection) {
        while !connection.isClosed {
            let room: Int
            switch connection.phase {
            case .head: room = limits.headBytes - connection.input.count
            case .push: room = scratch.count
            case .draining: room = scratch.count
            case .answering: return
            }
            guard room > 0 else { break }
            let count = scratch.withUnsafeMutableBytes { recv(connection.descriptor, $0.baseAddress, min(room, $0.count), 0) }
            if count > 0 {
                if connection.phase != .draining { connection.input.append(contentsOf: scratch[0..<count]) }
                continue
            }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { break }
            // The peer closed or the connection failed.
            drop(connection)
            return
        }
        switch connection.phase {
        case .head: readHead(connection)
        case .push: readFrames(connection)
        case .answering, .draining: break
        }
    }

    private func readHead(_ connection: Connection) {
        guard let end = HTTPRequestHead.endOfHead(in: connection.input, from: connection.searched - 3) else {
            if connection.input.count >= limits.headBytes {
                refuse(connection, HTTPRequestHead.refusalAtCap(connection.input))
            } else {
                connection.searched = connection.input.count
            }
            return
        }
        let head = connection.input[0..<end]
        defer { connection.searched = 0 }
        let request: HTTPRequestHead
        do throws(HTTPRequestHead.Refusal) {
            request = try HTTPRequestHead(head)
        } catch {
            refuse(connection, error)
            return
        }
        connection.input.removeFirst(end)
        guard request.method == "GET" || request.method == "HEAD" else {
            respond(connection, .methodNotAllowed, headers: [("Allow", "GET, HEAD")], body: "the live server answers GET and HEAD only\n", keepAlive: false, bodyless: false)
            return
        }
        let connectionTokens = request.values("connection").flatMap { $0.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        let keepAlive = request.version == "HTTP/1.1" ? !connectionTokens.contains("close") : connectionTokens.contains("keep-alive")
        let bodyless = request.method == "HEAD"
        switch answer(request) {
        case .body(let status, let headers, let body):
            respond(connection, status, headers: headers, body: body, keepAlive: keepAlive, bodyless: bodyless)
        case .file(let status, let headers, let path):
            let file = open(path, O_RDONLY | O_CLOEXEC)
            var info = stat()
            guard file >= 0, fstat(file, &info) == 0 else {
                if file >= 0 { close(file) }
                respond(connection, .notFound, headers: [], body: "not found\n", keepAlive: keepAlive, bodyless: bodyless)
                return
            }
            start(connection, status, headers: headers, length: Int(info.st_size), keepAlive: keepAlive)
            if bodyless { close(file) } else { connection.file = file }
        case .webSocket(let key, let headers):
            connection.output = Self.head(.switchingProtocols, headers: headers + [
                ("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Accept", WebSocket.acceptKey(for: key)),
            ])
            connection.phase = .push
            connection.deadline = .infinity
            channel.open(connection.id, topic: request.query["process"])
            writable(connection)
            // Frames the page sent right behind its handshake.
            if !connection.isClosed, !connection.input.isEmpty { readFrames(connection) }
        }
    }

    private func readFrames(_ connection: Connection) {
        var consumed = 0
        defer { if !connection.isClosed { connection.input.removeFirst(consumed) } }
        while !connection.isClosed {
            let found: (frame: WebSocket.Frame, length: Int)?
            do throws(WebSocket.FrameError) {
                found = try WebSocket.frame(in: connection.input[consumed...], limit: limits.frameBytes)
            } catch {
                closePush(connection, code: error == .tooLarge ? 1009 : 1002)
                return
            }
            guard let (frame, length) = found else { return }
            consumed += length
            switch WebSocket.Opcode(rawValue: frame.opcode) {
            case .text where frame.isFinal:
                if let text = String(validating: frame.payload, as: UTF8.self) { channel.received(text, from: connection.id) }
            case .ping:
                // A page that sends pings and reads nothing is not answered past the queue's
                // bound: its pongs would grow the queue as the stream's would.
                guard connection.pendingBytes < limits.pushBytes else { break }
                WebSocket.appendFrame(.pong, payload: frame.payload, to: &connection.output)
                writable(connection)
            case .close:
                closePush(connection, code: 1000)
                return
            default:
                break
            }
        }
    }

    /// Sends a close frame with `code`, then closes once it is written.
    private func closePush(_ connection: Connection, code: UInt16) {
        connection.closesAfterWriting = true
        withUnsafeBytes(of: code.bigEndian) { WebSocket.appendFrame(.close, payload: Array($0), to: &connection.output) }
        connection.deadline = Self.now() + 2
        writable(connection)
    }

    // MARK: Answering

    private func refuse(_ connection: Connection, _ refusal: HTTPRequestHead.Refusal) {
        connection.input.removeAll()
        respond(connection, refusal.status, headers: [], body: refusal.reason + "\n", keepAlive: false, bodyless: false)
    }

    private func respond(_ connection: Connection, _ status: HTTPStatus, headers: [(String, String)], body: String, keepAlive: Bool, bodyless: Bool) {
        respond(connection, status, headers: headers + [("Content-Type", "text/plain; charset=utf-8")], body: Array(body.utf8), keepAlive: keepAlive, bodyless: bodyless)
    }

    private func respond(_ connection: Connection, _ status: HTTPStatus, headers: [(String, String)], body: [UInt8], keepAlive: Bool, bodyless: Bool) {
        start(connection, status, headers: headers, length: body.count, keepAlive: keepAlive)
        if !bodyless { connection.output.append(contentsOf: body) }
        writable(connection)
    }

    private func start(_ connection: Connection, _ status: HTTPStatus, headers: [(String, String)], length: Int, keepAlive: Bool) {
        connection.phase = .answering
        connection.keepAlive = keepAlive
        connection.deadline = Self.now() + limits.writeSeconds
        connection.output = Self.head(status, headers: headers + [
            ("Content-Length", String(length)), ("Connection", keepAlive ? "keep-alive" : "close"),
        ])
    }

    private static func head(_ status: HTTPStatus, headers: [(String, String)]) -> [UInt8] {
        var text = "HTTP/1.1 \(status.rawValue) \(status.phrase)\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    // MARK: Writing

    private func refill(_ connection: Connection) {
        connection.output.removeAll(keepingCapacity: true)
        connection.sent = 0
        guard channel.frames(for: connection.id, into: &connection.output, limit: limits.pushBytes) else {
            return closePush(connection, code: 4000)
        }
        if connection.pendingBytes > 0 { connection.deadline = Self.now() + limits.writeSeconds }
    }

    private func writable(_ connection: Connection) {
        while !connection.isClosed {
            if connection.pendingBytes == 0 {
                connection.output.removeAll(keepingCapacity: true)
                connection.sent = 0
                if connection.file >= 0 {
                    let count = scratch.withUnsafeMutableBytes { read(connection.file, $0.baseAddress, $0.count) }
                    if count > 0 {
                        connection.output.append(contentsOf: scratch[0..<count])
                        continue
                    }
                    close(connection.file)
                    connection.file = -1
                    if count < 0 {
                        drop(connection)
                        return
                    }
                } else if connection.phase == .push, !connection.closesAfterWriting {
                    refill(connection)
                    if connection.pendingBytes > 0 { continue }
                }
                finishedWriting(connection)
                return
            }
            let count = connection.output.withUnsafeBytes {
                send(connection.descriptor, $0.baseAddress! + connection.sent, connection.pendingBytes, Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                connection.sent += count
                if connection.phase != .draining { connection.deadline = Self.now() + limits.writeSeconds }
                continue
            }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }
            drop(connection)
            return
        }
    }

    private func finishedWriting(_ connection: Connection) {
        switch connection.phase {
        case .answering where connection.keepAlive:
            connection.phase = .head
            connection.deadline = Self.now() + limits.headSeconds
            if !connection.input.isEmpty { readHead(connection) }
        case .answering:
            // Closing with unread bytes would reset the connection before the client read the
            // answer: stop sending, and discard what comes for a moment.
            shutdown(connection.descriptor, Int32(SHUT_WR))
            connection.phase = .draining
            connection.deadline = Self.now() + 2
        case .push:
            if connection.closesAfterWriting { drop(connection) } else { connection.deadline = .infinity }
        case .head, .draining:
            break
        }
    }

    private func drop(_ connection: Connection) {
        guard !connection.isClosed else { return }
        if connection.phase == .push { channel.closed(connection.id) }
        if connection.file >= 0 { close(connection.file) }
        close(connection.descriptor)
        connection.isClosed = true
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}

/// One client connection, as the server's loop sees it.
private final class Connection {
    enum Phase {
        /// Reading a request's line and headers.
        case head
        /// Writing an answer (from `output`, then from `file`).
        case answering
        /// A WebSocket page: frames out, its few frames in.
        case push
        /// Answered and closing: reading and discarding what the client still sends.
        case draining
    }

    let descriptor: Int32
    let id: Int
    var phase = Phase.head
    var input: [UInt8] = []
    /// How much of `input` has been searched for the end of a head.
    var searched = 0
    var output: [UInt8] = []
    var sent = 0
    /// A file whose rest is still to be sent, or -1.
    var file: Int32 = -1
    var keepAlive = true
    var closesAfterWriting = false
    var deadline: Double
    var isClosed = false

    init(descriptor: Int32, id: Int, deadline: Double) {
        self.descriptor = descriptor
        self.id = id
        self.deadline = deadline
    }

    var pendingBytes: Int { output.count - sent }

    var events: Int16 {
        var events: Int16 = 0
        if phase != .answering { events |= Int16(POLLIN) }
        if pendingBytes > 0 || file >= 0 { events |= Int16(POLLOUT) }
        return events
    }
}
