// The allocation table: every Swift heap object allocated while a recording runs, so that
// the closing heap walk can start from all of them and not only from what signals reach.
//
// The Swift runtime calls through the exported function pointer `_swift_allocObject` when
// it differs from its own implementation (stdlib/public/runtime/HeapObject.cpp, CALL_IMPL);
// class instances, closure contexts, boxes and collection storage are all allocated through
// swift_allocObject. While the hook is installed, each allocation appends its address and
// metadata to the allocating thread's chunk: no lock, no atomic read-modify-write. A full
// chunk is retired to a global list; when the retired entries outgrow what survived the last
// compaction, they are compacted: sorted by address, one entry per address kept, and those
// whose first word is no longer the metadata they were allocated with (freed: the C
// library's free lists overwrite it) dropped. So the table grows with the objects alive,
// not with every allocation made.
//
// A chunk belongs to its thread until it is full; then to the table. A thread's current
// chunk is also published in a list, so that a snapshot taken in a forked child (one
// thread, a frozen copy of memory) sees every entry made before the fork.
#define _GNU_SOURCE
#include "CTracingSupport.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <dirent.h>
#include <dlfcn.h>
#include <signal.h>
#include <sys/mman.h>

typedef void *(*signalscope_alloc_object)(const void *metadata, size_t size, size_t alignment_mask);

// Exported by libswiftCore: the allocation entry point's hook; retain's hook; and the switch
// that the first hooked allocation turns on, after which retain and release call their
// hooks too.
extern signalscope_alloc_object _swift_allocObject;
extern void *(*_swift_retain)(void *);
extern void *swift_retain(void *);
extern void swift_release(void *);
extern _Atomic uint8_t _swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly;
#define swizzling _swift_enableSwizzlingOfAllocationAndRefCountingFunctions_forInstrumentsOnly

enum { chunk_capacity = 4096, compaction_minimum = 1 << 16 };

// The table keeps addresses (of objects and tasks) hidden, xor-ed with a key that sets the
// top bits, so that no tool scanning memory for pointers (LeakSanitizer, a conservative
// collector) takes the table for what keeps the program's objects alive. Entries are
// shown as they are only to a visitor. 0 stays 0: a stale entry.
static const uintptr_t hiding_key = (uintptr_t)0xFFFF000000000000ull;
static inline uintptr_t hide(uintptr_t address) { return address ^ hiding_key; }
static inline uintptr_t shown(uintptr_t hidden) { return hidden == 0 ? 0 : hidden ^ hiding_key; }

typedef struct chunk {
    struct chunk *next;
    struct chunk *previous;
    uint64_t generation;
    uint32_t thread;
    _Atomic uint32_t count;
    signalscope_allocation entries[chunk_capacity];
} chunk;

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static signalscope_alloc_object original_alloc;
// How many recordings want the hook; it is installed while this is positive.
static unsigned installs;
// Bumped whenever the table is emptied: a thread whose chunk is of an older generation
// starts a new one.
static _Atomic uint64_t generation = 1;
// When an allocation was made, by a clock every thread reads alike and cheaply (the
// processor's invariant time-stamp counter): a recording takes the allocations made after
// it started, and an analysis tells which of two objects is older.
static inline uint64_t allocation_clock(void) {
#if defined(__x86_64__)
    return __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
    uint64_t ticks;
    __asm__ volatile("mrs %0, cntvct_el0" : "=r"(ticks));
    return ticks;
#else
    static _Atomic uint64_t ticks;
    return atomic_fetch_add_explicit(&ticks, 1, memory_order_relaxed) + 1;
#endif
}
static _Atomic bool recording_allocations;
// Chunks threads are filling, and chunks that are full.
static chunk *current_chunks;
static chunk *retired_chunks;
static size_t retired_entries;
// What the last compaction kept, sorted by address.
static signalscope_allocation *compacted;
static size_t compacted_count;
static size_t compacted_capacity;

static __thread __attribute__((tls_model("initial-exec"))) chunk *thread_chunk;
// Set once the thread is exiting: it notes nothing more.
static __thread __attribute__((tls_model("initial-exec"))) bool thread_exited;
// Whose recorded code the thread is running (a recording's identity, 0: none).
static __thread __attribute__((tls_model("initial-exec"))) uint64_t thread_code_scope;
static pthread_key_t thread_exit_key;
static pthread_once_t thread_exit_key_once = PTHREAD_ONCE_INIT;

static void unlink_chunk(chunk **list, chunk *c) {
    if (c->previous) c->previous->next = c->next; else *list = c->next;
    if (c->next) c->next->previous = c->previous;
    c->next = c->previous = NULL;
}

static void push_chunk(chunk **list, chunk *c) {
    c->previous = NULL;
    c->next = *list;
    if (*list) (*list)->previous = c;
    *list = c;
}

// A thread that exits gives its chunk to the table (or frees it if it is stale). Other
// thread-local destructors may still allocate after this one: the thread notes nothing more,
// and never touches the chunk again.
static void thread_exits(void *value) {
    chunk *c = value;
    thread_chunk = NULL;
    thread_exited = true;
    if (c == NULL) return;
    pthread_mutex_lock(&table_lock);
    unlink_chunk(&current_chunks, c);
    if (c->generation == atomic_load(&generation) && atomic_load(&c->count) > 0) {
        push_chunk(&retired_chunks, c);
        retired_entries += atomic_load(&c->count);
    } else {
        free(c);
    }
    pthread_mutex_unlock(&table_lock);
}

static void make_thread_exit_key(void) { pthread_key_create(&thread_exit_key, thread_exits); }

static int compare_entries(const void *a, const void *b) {
    uintptr_t x = ((const signalscope_allocation *)a)->address, y = ((const signalscope_allocation *)b)->address;
    return x < y ? -1 : x > y;
}

// Keeps, of `entries`, one per address whose first word is still its metadata; in place.
static size_t keep_live(signalscope_allocation *entries, size_t count) {
    qsort(entries, count, sizeof *entries, compare_entries);
    size_t kept = 0;
    for (size_t i = 0; i < count; i++) {
        // Of two allocations at one address, the later one is the object there now.
        if (i + 1 < count && entries[i + 1].address == entries[i].address) {
            if (entries[i + 1].time < entries[i].time) entries[i + 1] = entries[i];
            continue;
        }
        entries[kept++] = entries[i];
    }
    enum { batch = 1024 };
    uintptr_t addresses[batch], words[batch];
    bool readable[batch];
    size_t live = 0;
    for (size_t start = 0; start < kept; start += batch) {
        size_t n = kept - start < batch ? kept - start : batch;
        for (size_t i = 0; i < n; i++) addresses[i] = shown(entries[start + i].address);
        signalscope_read_words(addresses, words, readable, n);
        // What cannot be read (a sandbox may deny reading through the kernel) is kept: the
        // snapshot checks it again.
        for (size_t i = 0; i < n; i++) {
            if (!readable[i] || words[i] == entries[start + i].metadata) entries[live++] = entries[start + i];
        }
    }
    return live;
}

// With the lock held: moves the retired chunks into the compacted array, dropping what was freed.
static void compact_locked(void) {
    size_t total = compacted_count + retired_entries;
    if (total > compacted_capacity) {
        signalscope_allocation *grown = realloc(compacted, total * sizeof *compacted);
        if (grown == NULL) return;
        compacted = grown;
        compacted_capacity = total;
    }
    size_t count = compacted_count;
    while (retired_chunks) {
        chunk *c = retired_chunks;
        unlink_chunk(&retired_chunks, c);
        uint32_t n = atomic_load(&c->count);
        memcpy(compacted + count, c->entries, n * sizeof *c->entries);
        count += n;
        free(c);
    }
    retired_entries = 0;
    compacted_count = keep_live(compacted, count);
}

// Gives the calling thread a new chunk, retiring or freeing its previous one.
static chunk *next_chunk(chunk *previous) {
    pthread_once(&thread_exit_key_once, make_thread_exit_key);
    chunk *fresh = malloc(sizeof(chunk));
    pthread_mutex_lock(&table_lock);
    uint64_t now = atomic_load(&generation);
    if (previous) {
        unlink_chunk(&current_chunks, previous);
        if (previous->generation == now) {
            push_chunk(&retired_chunks, previous);
            retired_entries += atomic_load(&previous->count);
        } else {
            free(previous);
        }
    }
    if (fresh) {
        fresh->generation = now;
        fresh->thread = (uint32_t)syscall(SYS_gettid);
        atomic_store_explicit(&fresh->count, 0, memory_order_relaxed);
        push_chunk(&current_chunks, fresh);
    }
    if (retired_entries >= compaction_minimum && retired_entries >= compacted_count) compact_locked();
    pthread_mutex_unlock(&table_lock);
    thread_chunk = fresh;
    pthread_setspecific(thread_exit_key, fresh);
    return fresh;
}

uintptr_t signalscope_current_task(void);

static inline void note_allocation(void *object, const void *metadata) {
    if (!atomic_load_explicit(&recording_allocations, memory_order_relaxed) || thread_exited) return;
    chunk *c = thread_chunk;
    uint32_t count;
    if (__builtin_expect(c == NULL || c->generation != atomic_load_explicit(&generation, memory_order_relaxed)
                             || (count = atomic_load_explicit(&c->count, memory_order_relaxed)) >= chunk_capacity, 0)) {
        c = next_chunk(c);
        if (c == NULL) return;
        count = 0;
    }
    c->entries[count] = (signalscope_allocation){
        hide((uintptr_t)object), (uintptr_t)metadata, hide(signalscope_current_task()), thread_code_scope,
        allocation_clock(), c->thread };
    // Released so that a reader (the forked child reads a frozen copy; compaction only
    // retired chunks) never sees a count ahead of its entry.
    atomic_store_explicit(&c->count, count + 1, memory_order_release);
}

static void *allocate_and_note(const void *metadata, size_t size, size_t alignment_mask) {
    void *object = original_alloc(metadata, size, alignment_mask);
    note_allocation(object, metadata);
    return object;
}

// Why the switch is held at 2, not left to the runtime: once it reads 1, every retain and
// release goes through its hook, and this runtime's retain adapter strips a bridge
// object's tag bits before checking for a tagged value, so retaining a small string
// crashes. The runtime sets the switch (to 1) only when it reads 0, and every retain and
// release calls its hook only when it reads exactly 1: at 2, allocations reach our hook and
// retains stay on their fast path. It is never set back to 0: a thread that read our hook
// before it was removed would then set it to 1. `switch_holds_at_two` checks, once, that
// retain does not call its hook with the switch at 2; if it does, the hook is never used.
static unsigned long probed_retains;
static void *(*unprobed_retain)(void *);
static void *probe_retain(void *object) {
    probed_retains++;
    return unprobed_retain(object);
}

static int switch_state;  // 0 unknown, 1 usable, -1 not

static bool switch_holds_at_two(void *object) {
    if (switch_state != 0) return switch_state > 0;
    uint8_t before = atomic_load(&swizzling);
    if (before != 0 && before != 2) {
        switch_state = -1;  // another instrument turned the runtime's hooks on
        return false;
    }
    atomic_store(&swizzling, 2);
    unprobed_retain = _swift_retain;
    _swift_retain = probe_retain;
    swift_retain(object);
    swift_release(object);
    _swift_retain = unprobed_retain;
    switch_state = probed_retains == 0 ? 1 : -1;
    return switch_state > 0;
}

uint64_t signalscope_allocations_start(void *probe) {
    pthread_mutex_lock(&table_lock);
    uint64_t started = 0;
    if (switch_holds_at_two(probe)) {
        if (installs++ == 0) {
            if (original_alloc == NULL) original_alloc = _swift_allocObject;
            atomic_store(&recording_allocations, true);
            _swift_allocObject = allocate_and_note;
        }
        started = allocation_clock() | 1;
    }
    pthread_mutex_unlock(&table_lock);
    return started;
}

void signalscope_allocations_stop(void) {
    pthread_mutex_lock(&table_lock);
    if (installs > 0 && --installs == 0) {
        _swift_allocObject = original_alloc;
        atomic_store(&recording_allocations, false);
        // Empty the table: threads' current chunks are now stale, and freed by their
        // threads when they next allocate under a recording (or exit).
        atomic_fetch_add(&generation, 1);
        while (retired_chunks) {
            chunk *c = retired_chunks;
            unlink_chunk(&retired_chunks, c);
            free(c);
        }
        retired_entries = 0;
        free(compacted);
        compacted = NULL;
        compacted_count = compacted_capacity = 0;
    }
    pthread_mutex_unlock(&table_lock);
}

uint64_t signalscope_code_scope_enter(uint64_t recording) {
    uint64_t previous = thread_code_scope;
    thread_code_scope = recording;
    return previous;
}

uint64_t signalscope_code_scope_current(void) { return thread_code_scope; }


void signalscope_allocations_pause_in_child(void) {
    atomic_store(&recording_allocations, false);
}

// Marks (address 0) the entries in `entries` whose first word is no longer their metadata.
static void drop_stale(signalscope_allocation *entries, size_t count) {
    enum { batch = 256 };
    uintptr_t addresses[batch], words[batch];
    bool readable[batch];
    for (size_t start = 0; start < count; start += batch) {
        size_t n = count - start < batch ? count - start : batch;
        for (size_t i = 0; i < n; i++) addresses[i] = shown(entries[start + i].address);
        signalscope_read_words(addresses, words, readable, n);
        for (size_t i = 0; i < n; i++) {
            if (!readable[i] || words[i] != entries[start + i].metadata) entries[start + i].address = 0;
        }
    }
}

// Calls `body` for each list of entries in the table.
static void for_each_batch(void (*body)(signalscope_allocation *, size_t, void *), void *context) {
    uint64_t now = atomic_load(&generation);
    if (compacted_count > 0) body(compacted, compacted_count, context);
    for (chunk *c = retired_chunks; c; c = c->next) body(c->entries, atomic_load(&c->count), context);
    for (chunk *c = current_chunks; c; c = c->next) {
        if (c->generation == now) body(c->entries, atomic_load_explicit(&c->count, memory_order_acquire), context);
    }
}

static void drop_stale_batch(signalscope_allocation *entries, size_t count, void *context) {
    (void)context;
    drop_stale(entries, count);
}

int signalscope_allocations_freeze_in_child(void) {
    // The lock is a frozen copy: held means another thread was changing the lists at the
    // fork, and they cannot be read; the caller forks again.
    if (pthread_mutex_trylock(&table_lock) != 0) return -1;
    // Before anything is allocated here: a freed block the child allocates again could
    // otherwise pass for the object a stale entry names.
    for_each_batch(drop_stale_batch, NULL);
    pthread_mutex_unlock(&table_lock);
    return 0;
}

struct visit_context {
    void (*visit)(const signalscope_allocation *, size_t, void *);
    void *context;
    size_t total;
};

static void visit_batch(signalscope_allocation *entries, size_t count, void *context) {
    struct visit_context *visitor = context;
    enum { batch = 512 };
    signalscope_allocation shown_entries[batch];
    for (size_t start = 0; start < count; start += batch) {
        size_t n = count - start < batch ? count - start : batch;
        for (size_t i = 0; i < n; i++) {
            shown_entries[i] = entries[start + i];
            shown_entries[i].address = shown(entries[start + i].address);
            shown_entries[i].task = shown(entries[start + i].task);
        }
        visitor->visit(shown_entries, n, visitor->context);
    }
    visitor->total += count;
}

size_t signalscope_allocations_visit(void (*visit)(const signalscope_allocation *, size_t, void *), void *context) {
    pthread_mutex_lock(&table_lock);
    struct visit_context visitor = { visit, context, 0 };
    for_each_batch(visit_batch, &visitor);
    pthread_mutex_unlock(&table_lock);
    return visitor.total;
}

bool signalscope_allocations_are_recorded(void) {
    return atomic_load(&recording_allocations);
}

// The concurrency runtime's current task, looked up once: a program that never uses Swift
// concurrency may not have it loaded.
typedef void *(*current_task_function)(void);
static current_task_function current_task;
static pthread_once_t current_task_once = PTHREAD_ONCE_INIT;

static void *no_task(void) { return NULL; }

static void find_current_task(void) {
    current_task_function found = (current_task_function)dlsym(RTLD_DEFAULT, "swift_task_getCurrent");
    current_task = found ? found : no_task;
}

uintptr_t signalscope_current_task(void) {
    if (__builtin_expect(current_task == NULL, 0)) pthread_once(&current_task_once, find_current_task);
    return (uintptr_t)current_task();
}

uint32_t signalscope_thread_id(void) {
    return (uint32_t)syscall(SYS_gettid);
}

int signalscope_fork_for_snapshot(void) {
    pid_t pid = fork();
    if (pid == 0) {
        signalscope_allocations_pause_in_child();
        int crashes[] = { SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE, SIGTRAP };
        for (size_t i = 0; i < sizeof crashes / sizeof *crashes; i++) signal(crashes[i], SIG_DFL);
    }
    return pid;
}

int signalscope_anonymous_file(void) {
    return memfd_create("signalscope-snapshot", MFD_CLOEXEC);
}

int signalscope_thread_count(void) {
    DIR *tasks = opendir("/proc/self/task");
    if (tasks == NULL) return 0;
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(tasks)) != NULL) {
        if (entry->d_name[0] != '.') count++;
    }
    closedir(tasks);
    return count;
}
