// What the tracer needs from the Swift runtime and the C library that Swift cannot reach
// directly: two runtime entry points, and memory reads that cannot fault.
#ifndef CTRACINGSUPPORT_H
#define CTRACINGSUPPORT_H

#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

/// Resolves a mangled type name (symbolic references included, so it must be read in
/// place) to its type metadata, or NULL. Exported by libswiftCore.
__attribute__((swiftcall))
const void *_Nullable swift_getTypeByMangledNameInContext(
    const char *_Nonnull name, size_t length, const void *_Nullable context,
    const void *_Nullable const *_Nullable genericArguments);

/// The strong retain count of a native Swift object. Exported by libswiftCore.
__attribute__((swiftcall))
size_t swift_retainCount(void *_Nonnull object);

/// Demangles a Swift symbol into a malloc'd string (or NULL). Exported by libswiftCore.
char *_Nullable swift_demangle(
    const char *_Nonnull mangledName, size_t mangledNameLength, char *_Nullable outputBuffer,
    size_t *_Nullable outputBufferSize, unsigned int flags);

/// Copies `count` bytes from `address` into `destination` if all of them are readable;
/// returns false, without faulting, if they are not.
bool signalscope_read_memory(void *_Nonnull destination, const void *_Nullable address, size_t count);

/// Reads the word at each of `addresses` into `values`, setting `readable` for each, with
/// as few system calls as the unreadable ones allow. Addresses must be 8-byte aligned.
void signalscope_read_words(
    const uintptr_t *_Nonnull addresses, uintptr_t *_Nonnull values, bool *_Nonnull readable, size_t count);

/// The usable size of the heap block starting at `block` (which must be one).
size_t signalscope_heap_block_size(void *_Nonnull block);

#endif
