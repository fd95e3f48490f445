import Foundation

/// `--color`: whether text written to a terminal is coloured. `auto` colours only a
/// terminal, and never when `NO_COLOR` is set (to anything but the empty string,
/// https://no-color.org) or `TERM` is `dumb`.
enum ColorChoice: String, CaseIterable {
    case auto, always, never

    /// Whether to colour what goes to `descriptor`.
    func colors(_ descriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        switch self {
        case .always: true
        case .never: false
        case .auto:
            isatty(descriptor) == 1 && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
        }
    }
}
