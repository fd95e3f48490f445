@_spi(Internal) import Runtime
import Testing

@testable import SignalScopeHeap
@testable import SignalScopeTracing

/// The line tables' reader (CTracingSupport's `signalscope_source_line`, through
/// `SourceLines`), which places the closures and classes of every snapshot, against the
/// toolchain's `Runtime` module, which it replaces there.
@Suite("Source lines from the line tables", .timeLimit(.minutes(10)))
struct SourceLinesTests {
    @Test("A call is placed at the line it is written on, in the file it is written in")
    func callLine() throws {
        let (captured, line) = (try Backtrace.capture(limit: 128, images: LoadedImages.capture()), #line)
        // The call instruction before each return address.
        let locations = captured.frames.compactMap { frame -> (path: String, line: Int)? in
            guard case .returnAddress(let address) = frame, let value = UInt64(address), value > 0 else { return nil }
            return SourceLines.location(of: UInt(value - 1))
        }
        #expect(locations.contains { $0.path == #filePath && $0.line == line }, "\(locations)")
    }

    @Test("Addresses spread over the test binary's code are placed at the file and line the Runtime module places them at")
    func agreesWithTheRuntimeModule() throws {
        let images = LoadedImages.capture()
        let here = UInt64(unsafeBitCast({ 1 } as () -> Int, to: (UInt, UInt).self).0)
        let ranges = images.compactMap { image in UInt64(image.baseAddress).flatMap { base in UInt64(image.endOfText).map { base..<$0 } } }
        let code = try #require(ranges.first { $0.contains(here) })
        // Thirty addresses: the Runtime module takes tens of milliseconds for each.
        let stride = UInt64(code.count) / 31
        let addresses = (1...30).map { code.lowerBound + stride * UInt64($0) }
        let frames = addresses.map { RichFrame<UInt64>.programCounter($0) }
        let symbolicated = try #require(Backtrace(architecture: CodeSites.architecture, frames: frames, images: images).symbolicated())
        var compared = 0
        var seen = Set<UInt64>()
        // An address's first frame (its innermost inlined one, if any) carries the line tables' row.
        for frame in symbolicated.frames {
            guard let address = UInt64(frame.captured.originalProgramCounter), seen.insert(address).inserted,
                let expected = frame.symbol?.sourceLocation
            else { continue }
            // Left to the Runtime module where the file's directory is the compile unit's.
            guard let found = SourceLines.location(of: UInt(address)) else { continue }
            #expect(found.path == expected.path && found.line == expected.line, "\(frame)")
            compared += 1
        }
        #expect(compared >= 15, "most of the addresses are placed by the line tables' reader")
    }

    @Test("Each frame of a stack is given the innermost site somebody wrote that the Runtime module's inlined frames give it")
    func placedFrames() throws {
        let captured = try Backtrace.capture(limit: 16, top: 0, images: LoadedImages.capture())
        let placed = PlacedFrame.frames(of: captured).map { $0.lazy.compactMap(\.usersSite).first }
        let symbolicated = try #require(captured.symbolicated())
        var expected: [TraceSite?] = []
        var found: TraceSite?
        for frame in symbolicated.frames {
            if found == nil, let symbol = frame.symbol, !frame.isSwiftThunk, !frame.isSystem, !SourceSites.isLibrary(symbol.rawName) {
                found = symbol.sourceLocation.flatMap { SourceSites.site(of: symbol, path: $0.path, line: $0.line)?.site }
            }
            guard !frame.inlined else { continue }
            expected.append(found)
            found = nil
        }
        #expect(placed == expected)
        #expect(expected.contains { $0?.file == "SignalScopeTracingTests/SourceLinesTests.swift" }, "this test's own frame is placed")
    }
}
