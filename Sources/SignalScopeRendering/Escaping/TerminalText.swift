/// Text from a trace made safe to print on a terminal: no escape sequence (ESC, CSI, OSC),
/// bell, carriage return, line break or bidirectional override from a name, a value, an
/// error description or a path can act; each shows as `\u{…}`.
package enum TerminalText {
    /// `text` with every unsafe character escaped visibly (``UnsafeScalars``); a line stays
    /// one line. Backslashes are kept as they are, as in any path or message.
    package static func sanitized(_ text: String) -> String {
        UnsafeScalars.map(text) { _ in nil }
    }
}
