/// The generic parameters a closure context binds, as the generic environment the runtime's
/// type lookup (`swift_getTypeByMangledNameInEnvironment`) takes.
///
/// A closure made in generic code keeps the metadata of the generic parameters it needs
/// ("bindings") at the start of its context, and its capture descriptor says which binding
/// holds which parameter. A capture's mangled type names parameters by depth and index;
/// with this environment the runtime itself substitutes them, for any type however nested,
/// so the walker never rewrites mangled names.
struct GenericEnvironment: Hashable, Sendable {
    /// The environment descriptor: flags, cumulative parameter counts per depth, one
    /// parameter descriptor per parameter (a type with a key argument), no requirements.
    private let descriptor: [UInt8]
    /// The parameters' metadata, depth by depth.
    let arguments: [UInt]

    /// `parameters` must bind every parameter from index 0 at each depth up to the deepest
    /// one named; otherwise there is no environment to build (`nil`).
    init?(parameters: [(depth: Int, index: Int, metadata: UInt)]) {
        guard let deepest = parameters.map(\.depth).max() else { return nil }
        var counts = [Int](repeating: 0, count: deepest + 1)
        for parameter in parameters { counts[parameter.depth] = max(counts[parameter.depth], parameter.index + 1) }
        var starts: [Int] = []
        var total = 0
        for count in counts {
            starts.append(total)
            total += count
        }
        var arguments = [UInt](repeating: 0, count: total)
        for parameter in parameters { arguments[starts[parameter.depth] + parameter.index] = parameter.metadata }
        // A parameter with no known metadata would be looked up as whatever the slot holds.
        guard counts.allSatisfy({ $0 > 0 }), arguments.allSatisfy({ $0 != 0 }), total <= 0xFFFF, counts.count <= 0xFFF else {
            return nil
        }
        var bytes: [UInt8] = []
        withUnsafeBytes(of: UInt32(counts.count).littleEndian) { bytes += $0 }
        var cumulative = 0
        for count in counts {
            cumulative += count
            withUnsafeBytes(of: UInt16(cumulative).littleEndian) { bytes += $0 }
        }
        bytes += [UInt8](repeating: 0x80, count: total)  // kind: type parameter; has a key argument
        while bytes.count % 4 != 0 { bytes.append(0) }
        descriptor = bytes
        self.arguments = arguments
    }

    func withDescriptor<Result>(
        _ body: (UnsafeRawPointer, UnsafePointer<UnsafeRawPointer?>) -> Result
    ) -> Result {
        descriptor.withUnsafeBytes { descriptor in
            arguments.withUnsafeBufferPointer { arguments in
                arguments.baseAddress!.withMemoryRebound(to: UnsafeRawPointer?.self, capacity: arguments.count) {
                    body(descriptor.baseAddress!, $0)
                }
            }
        }
    }
}
