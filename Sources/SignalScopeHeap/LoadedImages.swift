@_spi(Internal) @_spi(MemoryReaders) import Runtime

/// The images (executable, libraries) the process has loaded, for symbolication.
///
/// Read through `process_vm_readv` on the process itself (the toolchain's `LocalMemoryReader`),
/// where a read that fails is an error, not a crash: the toolchain's `ImageMap.capture()`
/// reads each named mapping's first bytes in place, which faults on a mapping that is not
/// readable (a shared page unmapped meanwhile; under valgrind, the tool's own mappings, which
/// stopped `make bench-instructions`). Where the kernel denies `process_vm_readv` (a sandbox)
/// no image can be read that way, and the in-place capture is the only one there is.
package enum LoadedImages {
    package static func capture() -> ImageMap {
        let read = ImageMap.capture(using: LocalMemoryReader())
        return read.isEmpty ? ImageMap.capture() : read
    }
}
