/// Protocol Buffers bytes built piece by piece, for the few message types the Perfetto
/// export writes (``PerfettoExporter``).
///
/// Written by hand rather than with swift-protobuf: the export writes seven message types and
/// reads none, and swift-protobuf would add a dependency, its runtime and a code generator to
/// the build of every user of the rendering library for what is a varint, a length and a tag
/// each. The messages' field numbers live beside their names in ``PerfettoExporter``, each
/// checked by the test that reads the file with Perfetto's own compiled protos.
public struct ProtobufBuffer: ExportOutput, Sendable {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    public mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    /// A varint field (`uint32`, `uint64`, `int32` that is never negative, `bool`, an enum).
    mutating func varint(_ field: Int, _ value: UInt64) {
        tag(field, wireType: 0)
        appendVarint(value)
    }

    /// A `fixed64` field.
    mutating func fixed64(_ field: Int, _ value: UInt64) {
        tag(field, wireType: 1)
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    /// A `string` field, as UTF-8: whatever it holds stays data.
    mutating func string(_ field: Int, _ value: String) {
        tag(field, wireType: 2)
        appendVarint(UInt64(value.utf8.count))
        bytes += value.utf8
    }

    /// An embedded message field, whose body `body` writes.
    mutating func message(_ field: Int, _ body: (inout ProtobufBuffer) -> Void) {
        var nested = ProtobufBuffer()
        body(&nested)
        tag(field, wireType: 2)
        appendVarint(UInt64(nested.bytes.count))
        bytes += nested.bytes
    }

    private mutating func tag(_ field: Int, wireType: UInt64) { appendVarint(UInt64(field) << 3 | wireType) }

    private mutating func appendVarint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }
}
