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

/// In a forked child, whose address space nothing else changes: reads the map of readable
/// ranges once, so that later reads check an address against it and copy directly rather
/// than ask the kernel. Also keeps the C library from returning freed memory to the kernel,
/// which would unmap ranges the map says are readable. False if the map could not be read.
bool signalscope_freeze_address_space(void);

/// Copies `count` bytes from `address` into `destination` if all of them are readable;
/// returns false, without faulting, if they are not.
bool signalscope_read_memory(void *_Nonnull destination, const void *_Nullable address, size_t count);

/// Reads the word at each of `addresses` into `values`, setting `readable` for each, with
/// as few system calls as the unreadable ones allow. Addresses must be 8-byte aligned.
void signalscope_read_words(
    const uintptr_t *_Nonnull addresses, uintptr_t *_Nonnull values, bool *_Nonnull readable, size_t count);

/// The usable size of the heap block starting at `block` (which must be one).
size_t signalscope_heap_block_size(void *_Nonnull block);

/// One object the allocation table knows of: where it is, the metadata it was allocated
/// with, the Swift task that was running when it was allocated (0: none), whose recorded
/// code the thread was running (``signalscope_code_scope_enter``; 0: none), when it was
/// allocated (a processor clock that orders allocations across threads), and the kernel's id
/// of the thread that allocated it.
typedef struct {
    uintptr_t address;
    uintptr_t metadata;
    uintptr_t task;
    uint64_t scope;
    uint64_t time;
    uint32_t thread;
} signalscope_allocation;

/// Marks the calling thread as running the recorded code of `recording` (0: none; all ones:
/// the tracer's own work, which is no program's), so that the allocations it makes note it;
/// returns the previous mark, to restore with the same call.
uint64_t signalscope_code_scope_enter(uint64_t recording);

/// The calling thread's mark (see ``signalscope_code_scope_enter``).
uint64_t signalscope_code_scope_current(void);

/// Starts noting every Swift object allocated (nested: each start that returns non-zero
/// needs its stop), and returns the time it starts (non-zero): allocations from now on carry
/// that time or a later one. `probe` is any live Swift object, retained and released once to
/// check that the runtime's allocation hook can be used without turning on its retain hooks;
/// 0 if it cannot (then nothing is noted). `scoped`: the recording is of some code only, and
/// needs to know which task made each object (the entries' `task`, 0 otherwise).
uint64_t signalscope_allocations_start(void *_Nonnull probe, bool scoped);

/// Undoes one start, with the time it returned and the `scoped` it was made with; the last
/// one uninstalls the hook and empties the table. Entries older than every recording still
/// running are dropped.
void signalscope_allocations_stop(uint64_t started, bool scoped);

/// Merges the chunks threads handed over into the table (freed objects and entries older
/// than every recording running dropped; of several entries at one address, the latest is
/// kept at the next check): the work that keeps noting an allocation cheap, done by whoever
/// calls it, regularly (the log writers do, each time they wake).
void signalscope_allocations_merge(void);


/// Whether allocations are being noted.
bool signalscope_allocations_are_recorded(void);

/// Stops noting allocations in this process only, without touching the table: for a forked
/// child, whose own allocations are not the program's.
void signalscope_allocations_pause_in_child(void);

/// In a child forked by ``signalscope_fork_for_snapshot``, before it allocates anything:
/// marks the entries whose object was freed (their address becomes 0), and releases the
/// table's lock the fork was made with. Only entries made at `since` or later are looked at.
/// Adds to `progress` as it goes, for a parent that watches the child make progress.
void signalscope_allocations_freeze_in_child(uint64_t *_Nonnull progress, uint64_t since);

/// Hands every entry of the table made at `since` or later and not known to be stale to
/// `visit`, in batches (they may be stale still, in a process whose objects are being
/// freed). Returns how many entries were visited.
size_t signalscope_allocations_visit(
    uint64_t since, void (*_Nonnull visit)(const signalscope_allocation *_Nonnull entries, size_t count, void *_Nullable context),
    void *_Nullable context);

/// Forks a child for a snapshot, holding the allocation table's lock across the fork so that
/// the child's copy of it is whole: in the child, crash signals get their default action (no
/// crash report for the program's own handler to write) and allocations are no longer
/// noted. Returns what fork returns.
int signalscope_fork_for_snapshot(void);

/// An anonymous file (memfd) the child writes its snapshot into, or -1.
int signalscope_anonymous_file(void);

/// How many threads the process has (from /proc/self/task), or 0 if unknown.
int signalscope_thread_count(void);

/// The Swift task running on the calling thread, or 0 (as `swift_task_getCurrent` says).
uintptr_t signalscope_current_task(void);

/// The kernel's id of the calling thread.
uint32_t signalscope_thread_id(void);

/// Retains a Swift object unless it is being deinitialized (the runtime's `swift_tryRetain`,
/// which Swift code cannot call), and says whether it did. `object`'s memory must not have
/// been freed: the caller knows its deinit has not finished.
bool signalscope_try_retain(void *_Nonnull object);

/// The calling thread's tracing state (its `TracingThread`, retained; NULL until it first
/// records). A thread-local word: every record reads it, and reading it inline takes one
/// instruction where `pthread_getspecific` is a call.
extern __thread __attribute__((tls_model("initial-exec"))) void *_Nullable signalscope_tracing_thread_slot;

static inline void *_Nullable signalscope_tracing_thread(void) { return signalscope_tracing_thread_slot; }

static inline void signalscope_set_tracing_thread(void *_Nullable state) { signalscope_tracing_thread_slot = state; }

/// Where the code at an address is in its source, as the line tables say: the file's name
/// (a path, or a name relative to `directory`), its directory (absolute, or relative to
/// `unit_directory`), either may be NULL; the strings stay valid for the life of the process.
typedef struct {
    const char *_Nullable name;
    const char *_Nullable directory;
    const char *_Nullable unit_directory;
    uint64_t line;
    uint64_t column;
} signalscope_source_line_t;

/// The source line of the code at `address` in this process, from the DWARF line tables of
/// the image holding it (read from its file once, then one sequence per lookup). False if
/// the address is in no image, or its image has no line tables this reader can read
/// (compressed, in a separate debug file, not ELF64): the toolchain's `Runtime` still can.
bool signalscope_source_line(uintptr_t address, signalscope_source_line_t *_Nonnull line);

/// The files the rows with a line of the function (the line tables' sequence) holding
/// `address` are in, each once (by its number in the unit), the first `capacity` of them in
/// `files` (their `line` 0); returns how many there are, or 0 if the address is not placed.
/// A function whose rows are all in one file has no code inlined from another.
size_t signalscope_source_files_of_function(uintptr_t address, signalscope_source_line_t *_Nonnull files, size_t capacity);

#endif
