/// JSON text built piece by piece into bytes that its owner writes out as they grow, so
/// that an export of any size takes memory for its pending bytes only.
///
/// Written here rather than with `JSONSerialization`, which needs the whole document as
/// `[String: Any]` first: on a 46 MB trace that took minutes and gigabytes.
///
/// Strings are escaped so that the JSON keeps the text exactly and no reader meets an
/// unsafe character raw: quotes, backslashes, and every ``UnsafeScalars`` character
/// (control characters, bidirectional overrides, noncharacters) as `\u` escapes, and `<`,
/// `>` and `&` too, so the same text can sit inside an HTML `<script>` element.
public struct JSONBuffer: Sendable {
    /// The text so far, as UTF-8.
    public internal(set) var bytes: [UInt8] = []

    /// An empty buffer.
    public init() {}

    /// Appends JSON syntax or a number as it is.
    public mutating func raw(_ text: String) { bytes += text.utf8 }

    /// Appends `text` as a quoted, escaped JSON string.
    public mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": bytes += "\\\"".utf8
            case "\\": bytes += "\\\\".utf8
            case "\n": bytes += "\\n".utf8
            case "<", ">", "&": escape(UInt16(scalar.value))
            case _ where UnsafeScalars.contains(scalar):
                UTF16.encode(scalar) { escape($0) }
            default:
                UTF8.encode(scalar) { bytes.append($0) }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `"key":` for an object member.
    public mutating func key(_ key: String) {
        string(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Appends an integer.
    public mutating func number(_ value: some BinaryInteger) { bytes += "\(value)".utf8 }

    /// Appends nanoseconds as microseconds with three decimals, exactly (the Trace Event
    /// format's unit).
    public mutating func microseconds(_ nanoseconds: UInt64) {
        let fraction = nanoseconds % 1_000
        bytes += "\(nanoseconds / 1_000).".utf8
        if fraction < 100 { bytes.append(UInt8(ascii: "0")) }
        if fraction < 10 { bytes.append(UInt8(ascii: "0")) }
        bytes += "\(fraction)".utf8
    }

    /// Empties the buffer, keeping its storage, after its owner wrote the bytes out.
    public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    /// `\u` and four lowercase hex digits.
    private mutating func escape(_ unit: UInt16) {
        bytes += "\\u".utf8
        for shift in stride(from: 12, through: 0, by: -4) {
            let digit = UInt8(unit >> UInt16(shift) & 0xF)
            bytes.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
        }
    }
}
