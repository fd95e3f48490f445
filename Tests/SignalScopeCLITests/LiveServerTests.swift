import Foundation
import Testing

/// `signalscope live` against what a neighbour on the same machine can send it, driven by
/// Tests/Probes/live_server.py while the LiveSession example streams: the server is limited
/// to 128 open files, as a small `ulimit -n` would.
@Suite("The live server under floods, storms and stalled clients, and its processes", .serialized, .timeLimit(.minutes(10)))
struct LiveServerTests {
    @Test("Floods of long headers and URLs, more idle connections than files, and WebSocket clients that never read leave the page answering at once, in bounded memory; HEAD, Host, methods and the handshake follow the protocol", .atScale)
    func hostileNeighbours() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let script = CLIRunner.repository.appendingPathComponent("Tests/Probes/live_server.py").path
        let result = try cli.run(
            "/usr/bin/env", ["python3", script, CLIRunner.product("signalscope"), CLIRunner.product("LiveSession")], timeLimit: 240)
        #expect(result.status == 0, "\(result.standardError)")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any], "\(result.standardError)")

        func page(_ key: String) -> (seconds: Double, status: Int?) {
            let page = seen[key] as? [String: Any] ?? [:]
            return (page["seconds"] as? Double ?? .infinity, page["status"] as? Int)
        }
        for key in ["pageDuringFlood", "pageDuringStorm", "pageAfterStorm", "pageWhileStalledClients"] {
            let (seconds, status) = page(key)
            #expect(status == 200 && seconds < 2, "\(key): status \(String(describing: status)) after \(seconds) s")
        }
        #expect(seen["floodStatuses"] as? [Int] == [431, 431, 431, 431, 414, 414, 414, 414],
            "an oversized head is refused with its status: \(String(describing: seen["floodStatuses"]))")
        #expect((seen["idleConnections"] as? Int ?? 0) > 128, "the storm outnumbered the file limit")

        let head = try #require(seen["head"] as? [String: Any])
        #expect(head["status"] as? Int == 200 && head["bodyBytes"] as? Int == 0 && (head["contentLength"] as? Int ?? 0) > 1000,
            "HEAD says the page's length and sends no body: \(head)")
        #expect(seen["twoHosts"] as? Int == 400, "two Host headers are refused, not read as the last one")
        let localhost = try #require(seen["localhost"] as? [String: Any])
        #expect(localhost["status"] as? Int == 403 && (localhost["body"] as? String ?? "").contains("http://127.0.0.1:"),
            "a localhost address is refused with the address to use: \(localhost)")
        #expect(seen["post"] as? Int == 405)
        #expect(seen["folded"] as? Int == 400 && seen["badLine"] as? Int == 400)
        let handshake = try #require(seen["handshake"] as? [String: Any])
        #expect(handshake["status"] as? Int == 101 && handshake["accept"] as? String == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=",
            "RFC 6455's sample key gets its sample answer: \(handshake)")
        // Twenty pages that never read a byte of a 200,000-event stream cost each a bounded
        // queue, not a copy of the stream, and the server keeps a window, not the history (a
        // generous guard: docs/performance.md measures 57 MiB at 100,000 events, 72-78 MiB at
        // a million; it was 171 MiB and 1,355 MiB).
        #expect((seen["peakRSSMiB"] as? Double ?? .infinity) < 150, "peak \(String(describing: seen["peakRSSMiB"])) MiB")
        let late = try #require(seen["latePage"] as? [String: Any])
        #expect(late["startsFromState"] as? Bool == true && (late["firstEvent"] as? Int ?? 0) > 0 && (late["lanes"] as? Int ?? 0) >= 2,
            "a page that connects late starts from the state, its events numbered on: \(late)")
        #expect((late["eventsRead"] as? Int ?? 0) > 0 && (late["kinds"] as? [String])?.contains("end") == true, "and reads on to the end: \(late)")
        #expect((late["links"] as? [String])?.contains("./Examples/LiveSession/main.swift") == true, "the page links its sites: \(late)")
        let sources = try #require(seen["sources"] as? [String: [String: Any]])
        #expect(sources["projectFile"]?["status"] as? Int == 200 && sources["projectFile"]?["mentionsScreen"] as? Bool == true
            && sources["projectFile"]?["plainText"] as? Bool == true, "a site's link opens its file, as text: \(sources)")
        #expect(sources["withoutToken"]?["status"] as? Int == 403)
        #expect(["notSwift", "outside", "dotDot", "nulByte"].allSatisfy { sources[$0]?["status"] as? Int == 404 }, "nothing but the project's Swift files: \(sources)")
        #expect(seen["exitStatus"] as? Int == 0, "the run ends as usual: \(String(describing: seen["stderr"]))")
    }

    @Test("A command that starts two traced processes: each has a live page of its own, every page links to both, and each its final report; a command that traces nothing is refused in one line, as check refuses it")
    func processes() throws {
        let cli = try CLIRunner()
        defer { cli.removeFolder() }
        let script = CLIRunner.repository.appendingPathComponent("Tests/Probes/live_processes.py").path
        let result = try cli.run(
            "/usr/bin/env", ["python3", script, CLIRunner.product("signalscope"), CLIRunner.product("LiveSession")], timeLimit: 240)
        #expect(result.status == 0, "\(result.standardError)")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any], "\(result.standardError)")
        let processes = seen["processes"] as? [String] ?? []
        #expect(processes.count == 2 && Set(processes).count == 2, "the first page is told of both processes: \(processes)")
        let pages = seen["pages"] as? [[String: Any]] ?? []
        #expect(pages.count == 2 && pages.allSatisfy { ($0["events"] as? Int ?? 0) > 0 && $0["ended"] as? Bool == true },
                "each process's page draws its own timeline to its end: \(pages)")
        #expect(pages.last?["processes"] as? [String] == processes, "the second process's page names both")
        let stderr = seen["stderr"] as? [String] ?? []
        #expect(stderr.contains { $0.hasPrefix("signalscope: process ") && $0.contains(" is traced too: http://127.0.0.1:") && $0.hasSuffix("&process=\(processes.last ?? "")") },
                "\(stderr)")
        #expect(seen["endedBeforeEnd"] as? Bool == true, "the page hears the program ended before its report is ready")
        let titles = seen["reportTitles"] as? [String] ?? []
        #expect(seen["listedProcesses"] as? Int == 2 && titles.count == 2 && titles.allSatisfy { $0.contains(" · process ") }
            && Set(titles).count == 2, "\(titles)")
        #expect(seen["exitStatus"] as? Int == 0, "Ctrl-C stops serving with the command's status")
        let untraced = try #require(seen["untraced"] as? [String: Any])
        let lines = untraced["stderr"] as? [String] ?? []
        #expect(untraced["status"] as? Int == 1 && lines.last?.hasPrefix("signalscope: error: true wrote no trace") == true
            && lines.count == 2, "the address, then the refusal: \(lines)")
    }
}
