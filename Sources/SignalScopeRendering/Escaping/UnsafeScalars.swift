/// The characters no output may pass on as they are, whatever its format: names, values,
/// error descriptions and file paths in a trace come from the traced program, and so from
/// whoever fed it data (a server's error message, a user's search text).
///
/// Each output kind has its own escaping layer in this folder (`TerminalText`, `XMLText`,
/// `DOTText`, `WorkflowCommandText`; JSON goes through `JSONSerialization`, which escapes
/// every control character). They share this list, and show what they replace as a
/// Swift-style `\u{…}` escape, so that nothing is lost and nothing acts.
package enum UnsafeScalars {
    /// Whether `scalar` must never reach an output raw: C0 and C1 control characters and
    /// DEL (terminal escape sequences, bells, line breaks inside a field), the invisible
    /// bidirectional controls that reorder what a reader sees, and Unicode noncharacters
    /// (U+FFFE, U+FFFF and the like, which XML forbids).
    package static func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        case 0xFDD0...0xFDEF: true
        default: scalar.value & 0xFFFE == 0xFFFE
        }
    }

    /// `scalar` as a visible escape: `\u{1B}`.
    package static func escape(_ scalar: Unicode.Scalar) -> String {
        "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
    }

    /// `text` with every scalar `replacement` names replaced, every other unsafe one
    /// escaped visibly, and the rest kept.
    package static func map(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) {
                result += replaced
            } else if contains(scalar) {
                result += escape(scalar)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
