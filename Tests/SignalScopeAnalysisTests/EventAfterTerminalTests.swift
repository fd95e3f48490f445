import SignalScopeTools
import Testing

/// Where `event-after-terminal` says the late event came from: the user's line that sent it,
/// and the user's frames of that send, symbolicated, with no SignalScope frames.
@Suite("event-after-terminal: the site of the late send", .timeLimit(.minutes(10)))
struct EventAfterTerminalTests {
    final class Uploader {
        let progress = Subject<Double>()

        func finish() { progress.sendCompleted() }

        /// A second completion path that still reports progress.
        func reportLate() { progress.sendNext(1) }
    }

    static let lateSendLine = 14

    @Test("The finding points at the line that sent after the terminal event, with its user frames and project-relative paths")
    func pointsAtTheLateSend() throws {
        let trace = Tracer.record {
            let uploader = Uploader()
            uploader.finish()
            uploader.reportLate()
        }
        // A recording sees every thread; this test judges only what was sent from this file.
        let finding = try #require(trace.analyze().findings.first {
            $0.rule == .eventAfterTerminal && $0.location.file == "SignalScopeAnalysisTests/EventAfterTerminalTests.swift"
        })
        #expect(finding.location.line == Self.lateSendLine)
        #expect(finding.location.function.contains("reportLate"))
        let frames = finding.path.dropFirst()
        #expect(frames.first?.contains("reportLate()") == true, "\(finding.path)")
        #expect(frames.first?.hasSuffix("(Tests/SignalScopeAnalysisTests/EventAfterTerminalTests.swift:\(Self.lateSendLine))") == true, "\(finding.path)")
        #expect(frames.contains { $0.contains("pointsAtTheLateSend()") }, "the caller's frame follows: \(finding.path)")
        #expect(!frames.contains { $0.contains("Sources/SignalScope") || $0.contains("SignalScope.") || $0.contains("SignalScopeTracing.") }, "no runtime or tracer frames: \(finding.path)")
        #expect(!frames.contains { $0.contains("(/") || $0.contains("+0x") }, "no absolute paths or raw addresses: \(finding.path)")
    }
}
