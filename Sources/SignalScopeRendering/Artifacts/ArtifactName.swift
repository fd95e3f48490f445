import Foundation

/// Names for the evidence a failing check keeps for CI to upload (`check --artifacts`,
/// `SIGNALSCOPE_ARTIFACTS` for the test helpers), from a trace's, a command's or a test's
/// name: safe for any file system and upload step, and never an earlier run's.
package enum ArtifactName {
    /// `text` as a file name: what is not an ASCII letter, a digit, `.` or `_` becomes `-`,
    /// runs of them one, leading and trailing `-` and `.` dropped, at most 80 characters;
    /// `check` when nothing is left.
    package static func safe(_ text: String) -> String {
        var name = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "." || scalar == "_") {
                name.unicodeScalars.append(scalar)
            } else if !name.hasSuffix("-") {
                name.append("-")
            }
        }
        let trimmed = String(name.trimmingCharacters(in: CharacterSet(charactersIn: "-.")).prefix(80))
        return trimmed.isEmpty ? "check" : trimmed
    }

    /// `name`, or `name-2`, `name-3`, …: the first no file of `folder` starts with, so that
    /// a run's evidence never replaces an earlier run's.
    package static func free(_ name: String, in folder: String) -> String {
        let taken = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        func isFree(_ stem: String) -> Bool { !taken.contains { $0.hasPrefix("\(stem).") || $0.hasPrefix("\(stem)-trace") } }
        if isFree(name) { return name }
        return (2...).lazy.map { "\(name)-\($0)" }.first(where: isFree)!
    }
}
