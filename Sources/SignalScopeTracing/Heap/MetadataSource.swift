/// Where a generic closure context keeps the metadata of one of its generic parameters, as
/// its capture descriptor encodes it: in one of its bindings (`B<n>`), as the class of an
/// object it captures (`R<n>`), as a metatype it captures (`M<n>`), or as a generic
/// argument of one of those (`G<i><source>_`).
indirect enum MetadataSource: Sendable, Equatable {
    case binding(Int)
    case referenceCapture(Int)
    case metadataCapture(Int)
    case genericArgument(Int, MetadataSource)

    /// Parses an encoded source; `nil` for anything else (such as `S`, which Swift does
    /// not emit for closure contexts).
    init?(encoded: [UInt8]) {
        var text = encoded[...]
        guard let source = Self.parse(&text), text.isEmpty else { return nil }
        self = source
    }

    private static func parse(_ text: inout ArraySlice<UInt8>) -> MetadataSource? {
        guard let kind = text.popFirst(), let number = natural(&text) else { return nil }
        switch kind {
        case UInt8(ascii: "B"): return .binding(number)
        case UInt8(ascii: "R"): return .referenceCapture(number)
        case UInt8(ascii: "M"): return .metadataCapture(number)
        case UInt8(ascii: "G"):
            guard let base = parse(&text), text.popFirst() == UInt8(ascii: "_") else { return nil }
            return .genericArgument(number, base)
        default: return nil
        }
    }

    private static func natural(_ text: inout ArraySlice<UInt8>) -> Int? {
        var value = 0
        var digits = 0
        while let byte = text.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), digits < 6 {
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
            text = text.dropFirst()
        }
        return digits > 0 ? value : nil
    }
}
