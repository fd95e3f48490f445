// The live page's server is FlyingFox: a small HTTP and WebSocket server on plain sockets
// and Swift concurrency, which builds in seconds, where Hummingbird or Vapor would bring
// SwiftNIO and minutes to every fresh build of the tool. It is the command-line tool's
// alone: an app that depends on the runtime never builds it.
import FlyingFox
import Foundation
import Glibc
import SignalScopeTools

/// Serves one live run on 127.0.0.1 only. Every request needs the run's token in its query
/// (`?token=`), and a `Host` of the loopback address and port (a page elsewhere cannot
/// reach it by a name that resolves to the loopback address); the push channel also refuses
/// any `Origin` but its own. Pages are not cacheable, carry no referrer and may fetch
/// nothing but from here.
final class LiveServer: Sendable {
    let token: String
    let hub = LiveHub()
    private let server: HTTPServer
    private let handler: RequestHandler
    private let report = LockedReport()
    private let requestedPort: UInt16

    /// A server of `page` on `port` (0: any free one), not yet started.
    init(port: UInt16, page: String) throws {
        requestedPort = port
        let token = Self.randomToken()
        self.token = token
        handler = RequestHandler(token: token, page: page, report: report, hub: hub)
        server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: port), logger: .disabled, handler: handler)
    }

    /// Starts serving; returns the port once the server listens, or says in one line why it
    /// cannot (the port is taken, say).
    func start() async throws -> UInt16 {
        let failure = LockedFailure()
        Task { [server] in
            do { try await server.run() } catch { failure.set(error) }
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if let error = failure.current {
                throw CLIError("cannot serve the live page on 127.0.0.1:\(requestedPort): \(error)")
            }
            if case .ip4(_, let port)? = await server.listeningAddress {
                handler.port.set(port)
                return port
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw CLIError("the live page's server did not start listening on 127.0.0.1:\(requestedPort) within 10 seconds")
    }

    /// The final report, served at `/report` once the program has ended.
    func setReport(_ html: String) { report.set(html) }

    func stop() async { await server.stop(timeout: 1) }

    /// 32 hexadecimal digits from the system's random source.
    private static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined()
    }
}

/// The final report, once there is one.
final class LockedReport: @unchecked Sendable {
    private let lock = NSLock()
    private var html: String?
    func set(_ html: String) { lock.withLock { self.html = html } }
    var current: String? { lock.withLock { html } }
}

/// Why the server stopped, if it did.
final class LockedFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var error: (any Error)?
    func set(_ error: any Error) { lock.withLock { self.error = error } }
    var current: (any Error)? { lock.withLock { error } }
}

/// The port, once known (the Host check needs it).
final class LockedPort: @unchecked Sendable {
    private let lock = NSLock()
    private var port: UInt16 = 0
    func set(_ port: UInt16) { lock.withLock { self.port = port } }
    var current: UInt16 { lock.withLock { port } }
}

private struct RequestHandler: HTTPHandler {
    let token: String
    let page: String
    let report: LockedReport
    let hub: LiveHub
    let port = LockedPort()

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard Self.equal(request.query["token"] ?? "", token), isLoopbackHost(request.headers[.host]) else {
            return Self.text(.forbidden, "forbidden\n")
        }
        switch request.path {
        case "/":
            return Self.html(page)
        case "/report":
            guard let html = report.current else { return Self.text(.notFound, "the program is still running\n") }
            return Self.html(html)
        case "/live":
            // A browser sends its page's origin with a WebSocket handshake; nothing but this
            // server's own page may open one.
            if let origin = request.headers[HTTPHeader("Origin")], origin != "http://127.0.0.1:\(port.current)" {
                return Self.text(.forbidden, "forbidden origin\n")
            }
            return try await WebSocketHTTPHandler(handler: MessageFrameWSHandler(handler: LiveMessages(hub: hub))).handleRequest(request)
        default:
            return Self.text(.notFound, "not found\n")
        }
    }

    private func isLoopbackHost(_ host: String?) -> Bool {
        host == "127.0.0.1:\(port.current)"
    }

    /// Compares in time independent of where the strings differ.
    private static func equal(_ given: String, _ expected: String) -> Bool {
        let a = Array(given.utf8), b = Array(expected.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private static let headers: HTTPHeaders = [
        HTTPHeader("Cache-Control"): "no-store",
        HTTPHeader("Referrer-Policy"): "no-referrer",
        HTTPHeader("X-Content-Type-Options"): "nosniff",
        HTTPHeader("Content-Security-Policy"):
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    ]

    private static func html(_ html: String) -> HTTPResponse {
        var headers = headers
        headers[.contentType] = "text/html; charset=utf-8"
        return HTTPResponse(statusCode: .ok, headers: headers, body: Data(html.utf8))
    }

    private static func text(_ status: HTTPStatusCode, _ text: String) -> HTTPResponse {
        var headers = headers
        headers[.contentType] = "text/plain; charset=utf-8"
        return HTTPResponse(statusCode: status, headers: headers, body: Data(text.utf8))
    }
}
