// What the tracer needs from the Swift runtime and the C library that Swift cannot reach
// directly: runtime entry points (type lookup, reference counts, enum value witnesses), and
// memory reads that cannot fault.
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

/// As `swift_getTypeByMangledNameInContext`, but a noncopyable type resolves to itself
/// (the older entry point answers `()` for one, so that old reflection never copies it).
/// Exported by libswiftCore since Swift 6.
__attribute__((swiftcall))
const void *_Nullable swift_getTypeByMangledNameInContext2(
    const char *_Nonnull name, size_t length, const void *_Nullable context,
    const void *_Nullable const *_Nullable genericArguments);

/// Resolves a mangled type name whose generic parameters are described by a generic
/// environment (a closure context's bindings), or NULL. Exported by libswiftCore.
__attribute__((swiftcall))
const void *_Nullable swift_getTypeByMangledNameInEnvironment(
    const char *_Nonnull name, size_t length, const void *_Nonnull environment,
    const void *_Nullable const *_Nullable genericArguments);

/// Whether a native Swift object has started deinitializing. Exported by libswiftCore.
bool swift_isDeallocating(void *_Nonnull object);

/// Loads a weak reference stored at `reference`: the object, retained, or NULL once it is
/// gone. Exported by libswiftCore.
void *_Nullable swift_weakLoadStrong(void *_Nonnull reference);

/// The case of an enum value (payload cases first, in declaration order), read through the
/// type's value witnesses; `value` is not changed.
unsigned signalscope_enum_tag(const void *_Nonnull value, const void *_Nonnull metadata);

/// Turns an enum value into its payload in place (clearing tag bits it keeps in the
/// payload's spare bits), through the type's value witnesses. Use it on a bitwise copy.
void signalscope_project_enum_payload(void *_Nonnull value, const void *_Nonnull metadata);

/// The strong retain count of a native Swift object. Exported by libswiftCore.
__attribute__((swiftcall))
size_t swift_retainCount(void *_Nonnull object);

/// Demangles a Swift symbol into a malloc'd string (or NULL). Exported by libswiftCore.
char *_Nullable swift_demangle(
    const char *_Nonnull mangledName, size_t mangledNameLength, char *_Nullable outputBuffer,
    size_t *_Nullable outputBufferSize, unsigned int flags);

/// The file of the loaded image that contains `address`, and where it is loaded; false if
/// no image contains it.
bool signalscope_image_containing(
    const void *_Nonnull address, const char *_Nullable *_Nonnull path, uintptr_t *_Nonnull base);

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
