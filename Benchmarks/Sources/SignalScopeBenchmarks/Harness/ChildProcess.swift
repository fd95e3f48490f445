import Foundation

/// Runs this benchmark binary again as a child process, for a measurement whose peak memory
/// must be its own, and decodes the JSON it prints.
enum ChildProcess {
    static func run<Output: Decodable>(_ arguments: String...) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError.childFailed("exit status \(process.terminationStatus)")
        }
        do {
            return try JSONDecoder().decode(Output.self, from: data)
        } catch {
            throw BenchmarkError.childFailed("unreadable output: \(String(decoding: data, as: UTF8.self))")
        }
    }
}

/// This process's memory, as Linux reports it in `/proc/self/status`.
enum ProcessMemory {
    /// A `kB` field, in MiB: `RssAnon:` (the heap, not the pages of a mapped file, which the
    /// kernel can drop at will), `VmRSS:` (all resident memory), `VmHWM:` (its peak).
    static func residentMebibytes(field: String) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
            let kilobytes = Double(line.split(separator: " ", omittingEmptySubsequences: true)[1])
        else { return 0 }
        return kilobytes / 1024
    }

    /// Resets `VmHWM` to the current resident memory, so that it measures what comes next.
    static func resetPeak() {
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
    }
}
