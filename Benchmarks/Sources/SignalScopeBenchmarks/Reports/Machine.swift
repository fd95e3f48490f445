import Foundation

/// What the benchmark ran on, printed with every result.
struct Machine: Codable, Sendable {
    let cpu: String
    let cores: Int
    let memoryGibibytes: Double
    let system: String
    let date: String

    static func current() -> Machine {
        let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuinfo.split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces)
        var name = utsname()
        uname(&name)
        func text(_ field: Any) -> String {
            String(decoding: Mirror(reflecting: field).children.compactMap { $0.value as? CChar }
                .prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return Machine(
            cpu: model ?? "unknown CPU", cores: ProcessInfo.processInfo.activeProcessorCount,
            memoryGibibytes: Double(ProcessInfo.processInfo.physicalMemory) / Double(1 << 30),
            system: "\(text(name.sysname)) \(text(name.release)) \(text(name.machine))",
            date: ISO8601DateFormatter().string(from: Date()))
    }
}
