import Foundation
import Testing

/// Compares `text` with `Golden/<name>.<extension>`; `SIGNALSCOPE_RECORD_GOLDEN=1` writes
/// it first, for a change that is intended.
func expectGolden(_ text: String, _ name: String, extension fileExtension: String = "dot") throws {
    let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Golden/\(name).\(fileExtension)")
    if ProcessInfo.processInfo.environment["SIGNALSCOPE_RECORD_GOLDEN"] == "1" {
        try text.write(to: golden, atomically: true, encoding: .utf8)
    }
    let expected = try String(contentsOf: golden, encoding: .utf8)
    #expect(text == expected, "re-record with SIGNALSCOPE_RECORD_GOLDEN=1 if the change is intended")
}
