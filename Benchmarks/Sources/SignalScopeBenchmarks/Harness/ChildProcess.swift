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
    ///
    /// Read with one system call and scanned as bytes: the analysis benchmark asks once per
    /// percent of the trace read, inside the time it measures, and reading the file into a
    /// `String` and splitting it into lines cost about 600,000 instructions a time (9% of
    /// analysing a 229,000-event trace).
    static func residentMebibytes(field: String) -> Double {
        let descriptor = open("/proc/self/status", O_RDONLY)
        guard descriptor >= 0 else { return 0 }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return 0 }
        let name = Array(field.utf8)
        for line in buffer[..<count].split(separator: UInt8(ascii: "\n")) where line.starts(with: name) {
            let digits = line.dropFirst(name.count).drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
                .prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            guard let kilobytes = Double(String(decoding: digits, as: UTF8.self)) else { return 0 }
            return kilobytes / 1024
        }
        return 0
    }

    /// Resets `VmHWM` to the current resident memory, so that it measures what comes next.
    static func resetPeak() {
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
    }
}
