import Foundation
import Glibc
import SignalScopeTools
import Synchronization

/// Serves one live run on 127.0.0.1 only (``LiveHTTPServer``). Every request needs the run's
/// token in its query (`?token=`), and one `Host`, the loopback address and port (a page
/// elsewhere cannot reach it by a name that resolves to the loopback address); the push
/// channel also refuses any `Origin` but its own. Pages are not cacheable, carry no referrer
/// and may fetch nothing but from here.
final class LiveServer: Sendable {
    let token: String
    let hubs = LiveHubs()
    private let server: LiveHTTPServer
    private let report = LockedReportPath()

    /// A server of `page` on `port` (0: any free one), listening but not yet serving; throws
    /// one line saying why it cannot listen (the port is taken, say).
    init(port: UInt16, page: String) throws {
        let token = Self.randomToken()
        self.token = token
        let routes = LiveRoutes(token: token, page: Array(page.utf8), report: report)
        server = try LiveHTTPServer(
            port: port, channel: hubs,
            onFailure: { standardError("signalscope: warning: \($0)") },
            answer: { routes.answer($0) })
        routes.port = server.port
    }

    /// The port it listens on.
    var port: UInt16 { server.port }

    func start() { server.start() }

    /// The final reports, one per traced process, served at `/report` once the program has
    /// ended: the report itself when there is one, else a list naming each process, whose
    /// report is at `/report?process=ID`.
    func setReports(_ reports: [(process: String, path: String)]) { report.set(reports) }

    func stop() async { await server.stop() }

    /// 32 hexadecimal digits from the system's random source.
    private static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in String(format: "%016llx", generator.next() as UInt64) }.joined()
    }
}

/// The final reports' files, once there are any.
final class LockedReportPath: Sendable {
    private let reports = Mutex<[(process: String, path: String)]?>(nil)
    func set(_ reports: [(process: String, path: String)]) { self.reports.withLock { $0 = reports } }
    var current: [(process: String, path: String)]? { reports.withLock { $0 } }
}

/// What each request is answered with (on the server's thread).
private final class LiveRoutes: @unchecked Sendable {
    let token: String
    let page: [UInt8]
    let report: LockedReportPath
    var port: UInt16 = 0
    /// The folder signalscope runs in, its links followed: the project whose files the
    /// reports link to.
    let root: String

    init(token: String, page: [UInt8], report: LockedReportPath) {
        self.token = token
        self.page = page
        self.report = report
        let real = realpath(FileManager.default.currentDirectoryPath, nil)
        root = real.map { String(cString: $0) } ?? FileManager.default.currentDirectoryPath
        free(real)
    }

    func answer(_ request: HTTPRequestHead) -> HTTPAnswer {
        let host = request.values("host").first ?? ""
        guard host == "127.0.0.1:\(port)" else {
            let hint = Self.isLoopbackName(host) ? "; open the address signalscope printed, http://127.0.0.1:\(port)/?token=…" : ""
            return Self.text(.forbidden, "forbidden: the live page answers to 127.0.0.1:\(port) only\(hint)\n")
        }
        guard Self.equal(request.query["token"] ?? "", token) else { return Self.text(.forbidden, "forbidden\n") }
        switch request.path {
        case "/":
            return .body(.ok, headers: Self.headers + [("Content-Type", "text/html; charset=utf-8")], page)
        case "/report":
            guard let reports = report.current else { return Self.text(.notFound, "the program is still running\n") }
            let html = Self.headers + [("Content-Type", "text/html; charset=utf-8")]
            if let process = request.query["process"] {
                guard let chosen = reports.first(where: { $0.process == process }) else { return Self.text(.notFound, "no such process\n") }
                return .file(.ok, headers: html, path: chosen.path)
            }
            if reports.count == 1 { return .file(.ok, headers: html, path: reports[0].path) }
            return .body(.ok, headers: html, Array(reportList(reports.map(\.process)).utf8))
        case "/live":
            // A browser sends its page's origin with a WebSocket handshake; nothing but this
            // server's own page may open one.
            if let origin = request.values("origin").first, origin != "http://127.0.0.1:\(port)" {
                return Self.text(.forbidden, "forbidden origin\n")
            }
            let upgrade = request.values("upgrade").first?.lowercased()
            let connection = request.values("connection").joined(separator: ",").lowercased()
            guard request.method == "GET", upgrade == "websocket", connection.contains("upgrade"),
                request.values("sec-websocket-version").first == "13",
                let key = request.values("sec-websocket-key").first, !key.isEmpty
            else { return Self.text(.badRequest, "the push channel takes a WebSocket handshake (version 13) only\n") }
            return .webSocket(key: key, headers: Self.headers)
        default:
            guard let file = sourceFile(at: String(request.path)) else { return Self.text(.notFound, "not found\n") }
            return .file(.ok, headers: Self.headers + [("Content-Type", "text/plain; charset=utf-8")], path: file)
        }
    }

    /// The project's Swift file at `path` (a report's link to a site: the file's path from
    /// the folder signalscope runs in, percent-encoded), or `nil`: only `.swift` files, only
    /// inside that folder once every link is followed.
    private func sourceFile(at path: String) -> String? {
        guard let relative = path.dropFirst().removingPercentEncoding, !relative.contains("\0"),
            !relative.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }),
            let real = realpath(root + "/" + relative, nil)
        else { return nil }
        defer { free(real) }
        // The file itself, once links are followed, is a Swift file inside the folder: a
        // link named `.swift` to anything else is refused.
        let resolved = String(cString: real)
        var status = stat()
        guard resolved.hasPrefix(root + "/"), resolved.hasSuffix(".swift"), stat(resolved, &status) == 0, status.st_mode & S_IFMT == S_IFREG
        else { return nil }
        return resolved
    }

    /// The page naming each traced process, linking to its report.
    private func reportList(_ processes: [String]) -> String {
        let items = processes.map { process in
            let link = XMLText.escaped("/report?token=\(token)&process=\(process)")
            return "<li><a href=\"\(link)\">process \(XMLText.escaped(process))</a></li>"
        }
        return "<!DOCTYPE html><meta charset=\"utf-8\"><title>SignalScope</title>"
            + "<p>The command ran \(processes.count) traced processes; each has its own report:</p><ul>\(items.joined())</ul>"
    }

    /// `localhost`, `[::1]` and the like: the right machine by a name the server refuses.
    private static func isLoopbackName(_ host: String) -> Bool {
        let name = host.hasPrefix("[") ? String(host.prefix { $0 != "]" }.dropFirst()) : String(host.prefix { $0 != ":" })
        return ["localhost", "::1", "0.0.0.0"].contains(name.lowercased()) || name.hasPrefix("127.")
    }

    /// Compares in time independent of where the strings differ.
    private static func equal(_ given: String, _ expected: String) -> Bool {
        let a = Array(given.utf8), b = Array(expected.utf8)
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private static let headers: [(String, String)] = [
        ("Cache-Control", "no-store"),
        ("Referrer-Policy", "no-referrer"),
        ("X-Content-Type-Options", "nosniff"),
        ("Content-Security-Policy",
         "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
    ]

    private static func text(_ status: HTTPStatus, _ text: String) -> HTTPAnswer {
        .body(status, headers: headers + [("Content-Type", "text/plain; charset=utf-8")], Array(text.utf8))
    }
}
