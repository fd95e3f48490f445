// The allocation table: every Swift heap object allocated while a recording runs, so that
// the closing heap walk can start from all of them and not only from what signals reach.
//
// The Swift runtime calls through the exported function pointer `_swift_allocObject` when
// it differs from its own implementation (stdlib/public/runtime/HeapObject.cpp, CALL_IMPL);
// class instances, closure contexts, boxes and collection storage are all allocated through
// swift_allocObject. While the hook is installed, each allocation appends one entry to the
// allocating thread's chunk: no lock, no atomic read-modify-write, a few stores. A full chunk
// is handed to the table with one compare-and-swap, and the thread takes a new one.
//
// Handed-over chunks are merged into the table off the program's threads: the recordings'
// log writers call signalscope_allocations_merge every time they wake (and a thread that
// finds the hand-over list too long merges it itself). Merging drops the entries whose first
// word is no longer the metadata they were allocated with (freed: the C library's free lists
// overwrite it), which most objects are by then, and those older than every recording
// running (none of them takes those), and keeps the others, the survivors, in one array,
// checked again whenever it has doubled. Of two entries at one address the later is the
// object there now; an object freed and another of its class allocated at its address
// passes the first-word test, so the check keeps the later entry only. So the table grows
// with the objects that stay alive, not with every allocation made, even while recordings
// overlap for as long as the process runs. The survivors stay in the order they were
// merged, nearly the order they were made in, in blocks that each know their newest entry:
// a snapshot reads only the blocks made since its recording started, however many objects
// older recordings still hold.
//
// A thread's current chunk is also on a list, so that a snapshot taken in a forked child
// (one thread, a frozen copy of memory) sees every entry made before the fork.
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
#include <sys/prctl.h>

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

// Entries of a chunk: 4096 × 40 bytes, about 160 KiB a thread.
enum { chunk_capacity = 4096 };
// Handed-over entries past which the thread handing one over merges them itself.
enum { merge_backlog = 1 << 20 };

// The table keeps addresses (of objects and tasks) hidden, xor-ed with a key that sets the
// top bits, so that no tool scanning memory for pointers (LeakSanitizer, a conservative
// collector) takes the table for what keeps the program's objects alive. Entries are
// shown as they are only to a visitor. 0 stays 0: no entry.
static const uintptr_t hiding_key = (uintptr_t)0xFFFF000000000000ull;
static inline uintptr_t hide(uintptr_t address) { return address ^ hiding_key; }
static inline uintptr_t shown(uintptr_t hidden) { return hidden == 0 ? 0 : hidden ^ hiding_key; }

// An entry as the table keeps it; its thread is its chunk's.
typedef struct {
    uintptr_t address;
    uintptr_t metadata;
    uintptr_t task;
    uint64_t scope;
    uint64_t time;
} entry;

typedef struct chunk {
    // On the list of current chunks (doubly linked), or on the hand-over stack (next only).
    struct chunk *next;
    struct chunk *previous;
    uint32_t thread;
    _Atomic uint32_t count;
    entry entries[chunk_capacity];
} chunk;

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

static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
// The runtime's own allocator, which the hooks call. Set once, before a hook is installed;
// the hooks' acquiring load of it pairs with that releasing store, as the runtime's plain
// read of its hook variable cannot.
static _Atomic(signalscope_alloc_object) original_alloc;
// How many recordings want the hook; it is installed while this is positive. How many of
// them record some code only, and so need to know which task made each object.
static unsigned installs;
static unsigned scoped_installs;
// When each of the `installs` recordings running started, and the oldest of those times: an
// entry made before it is no recording's.
static uint64_t *running_starts;
static size_t running_capacity;
static uint64_t oldest_start;
static _Atomic bool recording_allocations;
// Chunks threads are filling (under the lock), and full ones handed over (a stack threads
// push onto without the lock; merging takes it whole).
static chunk *current_chunks;
static _Atomic(chunk *) handed_over;
static _Atomic size_t handed_over_entries;
// The merged table: the entries that survived merging, and how many of them there were
// when they were last all checked.
static entry *survivors;
static size_t survivor_count;
static size_t survivor_capacity;
static size_t survivors_checked;
// The time of the newest entry of each block of survivors; the capacity is a whole number
// of blocks.
enum { block_size = chunk_capacity };
static uint64_t *block_newest;

// A thread's chunk starts as the first of these, always full, so that the hot path has one
// test: a full chunk (a real one, or a sentinel) takes the slow path, which gives the thread
// a new one; a thread that is exiting points at the second, and notes nothing more.
static chunk no_chunk_yet = { .count = chunk_capacity };
static chunk exited_chunk = { .count = chunk_capacity };
static __thread __attribute__((tls_model("initial-exec"))) chunk *thread_chunk = &no_chunk_yet;
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

// With the lock held: takes `c` off the current list and hands it over, or frees it if it
// is stale or empty.
static void hand_over_locked(chunk *c) {
    unlink_chunk(&current_chunks, c);
    uint32_t count = atomic_load(&c->count);
    if (count == 0) {
        free(c);
        return;
    }
    chunk *head = atomic_load(&handed_over);
    do { c->next = head; } while (!atomic_compare_exchange_weak(&handed_over, &head, c));
    atomic_fetch_add(&handed_over_entries, count);
}

// A thread that exits hands its chunk over. Other thread-local destructors may still
// allocate after this one: the thread notes nothing more, and never touches the chunk again.
static void thread_exits(void *value) {
    chunk *c = value;
    thread_chunk = &exited_chunk;
    if (c == NULL || c == &exited_chunk || c == &no_chunk_yet) return;
    pthread_mutex_lock(&table_lock);
    hand_over_locked(c);
    pthread_mutex_unlock(&table_lock);
}

static void make_thread_exit_key(void) { pthread_key_create(&thread_exit_key, thread_exits); }

// With the lock held: whether each entry's object is gone: its first word, read, is no
// longer its metadata; what cannot be read is taken as still there (the snapshot checks it
// again). Its buffers are the table's, behind its lock, not on the stack of whatever thread
// merges (an allocating thread may be deep in its stack).
static void first_words(const entry *entries, size_t count, bool *gone) {
    enum { batch = chunk_capacity };
    static uintptr_t addresses[batch], words[batch];
    static bool readable[batch];
    for (size_t start = 0; start < count; start += batch) {
        size_t n = count - start < batch ? count - start : batch;
        for (size_t i = 0; i < n; i++) addresses[i] = shown(entries[start + i].address);
        signalscope_read_words(addresses, words, readable, n);
        for (size_t i = 0; i < n; i++) gone[start + i] = readable[i] && words[i] != entries[start + i].metadata;
    }
}

// With the lock held: appends a survivor.
static void keep_survivor(entry kept) {
    size_t block = survivor_count / block_size;
    if (survivor_count % block_size == 0 || kept.time > block_newest[block]) block_newest[block] = kept.time;
    survivors[survivor_count++] = kept;
}

// With the lock held: keeps, in order, the survivors whose address is not 0.
static void compact_survivors_locked(void) {
    size_t count = survivor_count;
    survivor_count = 0;
    for (size_t i = 0; i < count; i++) {
        if (survivors[i].address != 0) keep_survivor(survivors[i]);
    }
}

// With the lock held: clears the address of every survivor older than every recording
// running.
static void clear_older_than_running_locked(void) {
    for (size_t i = 0; i < survivor_count; i++) {
        if (survivors[i].time < oldest_start) survivors[i].address = 0;
    }
}

// With the lock held: clears the address of every survivor but the latest at its address,
// with a hash table of survivors' positions made for the purpose (skipped if there is no
// memory for it: the table then only grows more).
static void clear_earlier_at_same_address_locked(void) {
    if (survivor_count >= UINT32_MAX / 2) return;
    size_t capacity = 1;
    while (capacity < 2 * survivor_count) capacity *= 2;
    uint32_t *slots = calloc(capacity, sizeof *slots);
    if (slots == NULL) return;
    for (size_t i = 0; i < survivor_count; i++) {
        uintptr_t address = survivors[i].address;
        if (address == 0) continue;
        size_t slot = (size_t)(((uint64_t)(address >> 4) * 0x9E3779B97F4A7C15ull) >> 32) & (capacity - 1);
        for (;; slot = (slot + 1) & (capacity - 1)) {
            if (slots[slot] == 0) {
                slots[slot] = (uint32_t)i + 1;
                break;
            }
            entry *seen = &survivors[slots[slot] - 1];
            if (seen->address != address) continue;
            if (survivors[i].time >= seen->time) {
                seen->address = 0;
                slots[slot] = (uint32_t)i + 1;
            } else {
                survivors[i].address = 0;
            }
            break;
        }
    }
    free(slots);
}

// With the lock held: keeps, of the survivors, the latest entry at each address if its
// object is still there and some recording running may take it.
static void check_survivors_locked(void) {
    enum { batch = chunk_capacity };
    static bool gone[batch];
    clear_older_than_running_locked();
    clear_earlier_at_same_address_locked();
    compact_survivors_locked();
    for (size_t start = 0; start < survivor_count; start += batch) {
        size_t n = survivor_count - start < batch ? survivor_count - start : batch;
        first_words(survivors + start, n, gone);
        for (size_t i = 0; i < n; i++) {
            if (gone[i]) survivors[start + i].address = 0;
        }
    }
    compact_survivors_locked();
    survivors_checked = survivor_count;
}

// With the lock held: room for `more` survivors, after checking them all again when they
// have doubled since they last were.
static bool make_room_locked(size_t more) {
    if (survivor_count + more > 2 * survivors_checked && survivor_count > chunk_capacity) check_survivors_locked();
    if (survivor_count + more <= survivor_capacity) return true;
    size_t capacity = survivor_capacity ? survivor_capacity : chunk_capacity;
    while (capacity < survivor_count + more) capacity *= 2;
    entry *grown = realloc(survivors, capacity * sizeof *grown);
    if (grown == NULL) return false;
    survivors = grown;
    uint64_t *grown_blocks = realloc(block_newest, capacity / block_size * sizeof *grown_blocks);
    if (grown_blocks == NULL) return false;
    block_newest = grown_blocks;
    survivor_capacity = capacity;
    return true;
}

// With the lock held: merges one handed-over chunk into the table; false if there was none.
static bool merge_one_locked(void) {
    chunk *c = atomic_load(&handed_over);
    while (c && !atomic_compare_exchange_weak(&handed_over, &c, c->next)) {}
    if (c == NULL) return false;
    uint32_t count = atomic_load(&c->count);
    atomic_fetch_sub(&handed_over_entries, count);
    static bool gone[chunk_capacity];
    if (make_room_locked(count)) {
        first_words(c->entries, count, gone);
        for (uint32_t i = 0; i < count; i++) {
            if (!gone[i] && c->entries[i].time >= oldest_start) keep_survivor(c->entries[i]);
        }
    }
    free(c);
    return true;
}

// With the lock held: merges every handed-over chunk.
static void merge_locked(void) {
    while (merge_one_locked()) {}
}

void signalscope_allocations_merge(void) {
    // A chunk at a time, so that a snapshot waiting to fork (which takes the lock) waits for
    // one chunk's merge at most.
    bool merged = true;
    while (merged && atomic_load_explicit(&handed_over, memory_order_relaxed) != NULL) {
        pthread_mutex_lock(&table_lock);
        merged = merge_one_locked();
        pthread_mutex_unlock(&table_lock);
    }
}

// Hands the calling thread's full chunk over and gives it a new one.
static chunk *next_chunk(chunk *previous) {
    if (previous == &exited_chunk) return NULL;
    pthread_once(&thread_exit_key_once, make_thread_exit_key);
    chunk *fresh = malloc(sizeof(chunk));
    pthread_mutex_lock(&table_lock);
    if (previous != &no_chunk_yet) hand_over_locked(previous);
    if (fresh) {
        fresh->thread = (uint32_t)syscall(SYS_gettid);
        atomic_store_explicit(&fresh->count, 0, memory_order_relaxed);
        push_chunk(&current_chunks, fresh);
    }
    // Merging is the log writers' work; a program that allocates faster than they wake
    // merges its own backlog, so that the table never holds more than it must.
    if (atomic_load(&handed_over_entries) >= merge_backlog) merge_locked();
    pthread_mutex_unlock(&table_lock);
    thread_chunk = fresh ? fresh : &no_chunk_yet;
    pthread_setspecific(thread_exit_key, fresh);
    return fresh;
}

uintptr_t signalscope_current_task(void);

static inline void append(chunk *c, uint32_t count, void *object, const void *metadata, uintptr_t task) {
    c->entries[count] = (entry){ hide((uintptr_t)object), (uintptr_t)metadata, task, thread_code_scope, allocation_clock() };
    // Released so that a reader (the forked child reads a frozen copy) never sees a count
    // ahead of its entry.
    atomic_store_explicit(&c->count, count + 1, memory_order_release);
}

// A new chunk, then the entry: out of the hot path.
__attribute__((noinline)) static void note_in_new_chunk(void *object, const void *metadata, uintptr_t task) {
    chunk *c = next_chunk(thread_chunk);
    if (c != NULL) append(c, 0, object, metadata, task);
}

// The hot path: one test, a clock read and six stores. A chunk of an earlier recording is
// filled on: its entries are older than any recording that runs now, which takes only what
// was allocated after it started.
static inline void note_allocation(void *object, const void *metadata, uintptr_t task) {
    chunk *c = thread_chunk;
    uint32_t count = atomic_load_explicit(&c->count, memory_order_relaxed);
    if (__builtin_expect(count >= chunk_capacity, 0)) return note_in_new_chunk(object, metadata, task);
    append(c, count, object, metadata, task);
}

// The hook while only recordings of the whole process run: no task is needed.
static void *allocate_and_note(const void *metadata, size_t size, size_t alignment_mask) {
    void *object = atomic_load_explicit(&original_alloc, memory_order_acquire)(metadata, size, alignment_mask);
    if (atomic_load_explicit(&recording_allocations, memory_order_relaxed)) note_allocation(object, metadata, 0);
    return object;
}

// The hook while a recording of some code runs: the task that made each object says whether
// it is that code's.
static void *allocate_and_note_task(const void *metadata, size_t size, size_t alignment_mask) {
    void *object = atomic_load_explicit(&original_alloc, memory_order_acquire)(metadata, size, alignment_mask);
    if (atomic_load_explicit(&recording_allocations, memory_order_relaxed)) {
        note_allocation(object, metadata, hide(signalscope_current_task()));
    }
    return object;
}

// With the lock held: the hook the recordings running now need.
static void install_hook_locked(void) {
    _swift_allocObject = scoped_installs > 0 ? allocate_and_note_task : allocate_and_note;
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

// With the lock held: room for one more running recording's start.
static bool make_room_for_start_locked(void) {
    if (installs < running_capacity) return true;
    size_t capacity = running_capacity ? 2 * running_capacity : 8;
    uint64_t *grown = realloc(running_starts, capacity * sizeof *grown);
    if (grown == NULL) return false;
    running_starts = grown;
    running_capacity = capacity;
    return true;
}

uint64_t signalscope_allocations_start(void *probe, bool scoped) {
    pthread_mutex_lock(&table_lock);
    uint64_t started = 0;
    if (switch_holds_at_two(probe) && make_room_for_start_locked()) {
        if (installs == 0) {
            if (atomic_load(&original_alloc) == NULL) atomic_store_explicit(&original_alloc, _swift_allocObject, memory_order_release);
            atomic_store(&recording_allocations, true);
        }
        if (scoped) scoped_installs++;
        started = allocation_clock() | 1;
        running_starts[installs++] = started;
        if (installs == 1) oldest_start = started;
        install_hook_locked();
    }
    pthread_mutex_unlock(&table_lock);
    return started;
}

// With the lock held: forgets the start of a recording that stops; when it was the oldest,
// the entries only it could take go.
static void forget_start_locked(uint64_t started) {
    for (size_t i = 0; i < installs; i++) {
        if (running_starts[i] == started) {
            running_starts[i] = running_starts[installs - 1];
            break;
        }
    }
    if (installs <= 1 || started != oldest_start) return;
    oldest_start = running_starts[0];
    for (size_t i = 1; i < installs - 1; i++) {
        if (running_starts[i] < oldest_start) oldest_start = running_starts[i];
    }
    clear_older_than_running_locked();
    compact_survivors_locked();
}

void signalscope_allocations_stop(uint64_t started, bool scoped) {
    pthread_mutex_lock(&table_lock);
    if (scoped && scoped_installs > 0) scoped_installs--;
    if (installs > 0) install_hook_locked();
    if (installs > 0) forget_start_locked(started);
    if (installs > 0 && --installs == 0) {
        _swift_allocObject = atomic_load(&original_alloc);
        atomic_store(&recording_allocations, false);
        // Empty the table. Threads' current chunks stay theirs, filled on under the next
        // recording (which takes only what was allocated after it started), and handed over
        // when full or when their thread exits.
        chunk *c = atomic_exchange(&handed_over, NULL);
        while (c) {
            chunk *next = c->next;
            free(c);
            c = next;
        }
        atomic_store(&handed_over_entries, 0);
        free(survivors);
        free(block_newest);
        survivors = NULL;
        block_newest = NULL;
        survivor_count = survivor_capacity = survivors_checked = 0;
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

struct freeze_context {
    uint64_t *progress;
    uint64_t since;
};

// Marks (address 0) the entries made since `since` whose first word is no longer their
// metadata, counting its progress.
static void drop_stale(entry *entries, size_t count, struct freeze_context *context) {
    enum { batch = chunk_capacity };
    static bool gone[batch];
    static entry recent[batch];
    static size_t where[batch];
    for (size_t start = 0; start < count; start += batch) {
        __atomic_fetch_add(context->progress, 1, __ATOMIC_RELAXED);
        size_t n = count - start < batch ? count - start : batch;
        size_t kept = 0;
        for (size_t i = 0; i < n; i++) {
            if (entries[start + i].address == 0 || entries[start + i].time < context->since) continue;
            recent[kept] = entries[start + i];
            where[kept++] = start + i;
        }
        first_words(recent, kept, gone);
        for (size_t i = 0; i < kept; i++) {
            if (gone[i]) entries[where[i]].address = 0;
        }
    }
}

// Calls `body` for each list of entries in the table that may hold entries made at `since`
// or later, with the thread that made them (0: several threads').
static void for_each_batch(uint64_t since, void (*body)(entry *, size_t, uint32_t, void *), void *context) {
    for (size_t start = 0; start < survivor_count; start += block_size) {
        if (block_newest[start / block_size] < since) continue;
        body(survivors + start, survivor_count - start < block_size ? survivor_count - start : block_size, 0, context);
    }
    for (chunk *c = atomic_load(&handed_over); c; c = c->next) body(c->entries, atomic_load(&c->count), c->thread, context);
    for (chunk *c = current_chunks; c; c = c->next) {
        body(c->entries, atomic_load_explicit(&c->count, memory_order_acquire), c->thread, context);
    }
}

static void drop_stale_batch(entry *entries, size_t count, uint32_t thread, void *context) {
    (void)thread;
    drop_stale(entries, count, context);
}

void signalscope_allocations_freeze_in_child(uint64_t *progress, uint64_t since) {
    // The fork was made with the lock held (signalscope_fork_for_snapshot), so no other
    // thread was changing the table: its copy here is whole, and the lock this thread's.
    // Before anything is allocated here: a freed block the child allocates again could
    // otherwise pass for the object a stale entry names.
    struct freeze_context context = { progress, since };
    for_each_batch(since, drop_stale_batch, &context);
    pthread_mutex_unlock(&table_lock);
}

struct visit_context {
    void (*visit)(const signalscope_allocation *, size_t, void *);
    void *context;
    uint64_t since;
    size_t total;
};

static void visit_batch(entry *entries, size_t count, uint32_t thread, void *context) {
    struct visit_context *visitor = context;
    enum { batch = 512 };
    signalscope_allocation shown_entries[batch];
    size_t n = 0;
    for (size_t i = 0; i < count; i++) {
        if (entries[i].address == 0 || entries[i].time < visitor->since) continue;
        shown_entries[n++] = (signalscope_allocation){
            shown(entries[i].address), entries[i].metadata, shown(entries[i].task), entries[i].scope, entries[i].time,
            thread };
        if (n == batch) {
            visitor->visit(shown_entries, n, visitor->context);
            visitor->total += n;
            n = 0;
        }
    }
    if (n > 0) visitor->visit(shown_entries, n, visitor->context);
    visitor->total += n;
}

size_t signalscope_allocations_visit(
    uint64_t since, void (*visit)(const signalscope_allocation *, size_t, void *), void *context) {
    pthread_mutex_lock(&table_lock);
    struct visit_context visitor = { visit, context, since, 0 };
    for_each_batch(since, visit_batch, &visitor);
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
    // With the table's lock held across the fork, as pthread_atfork handlers hold theirs: the
    // child's copy of the table is never half changed. Other threads wait for the fork only.
    pthread_mutex_lock(&table_lock);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid != 0) pthread_mutex_unlock(&table_lock);
    if (pid == 0) {
        // The copy dies with the process that made it: one blocked on a lock held at the
        // fork, orphaned by a crash of its parent, would otherwise outlive it, holding the
        // parent's standard output open (a test runner then waits for it forever). The signal
        // follows the forking thread, not the process; that thread waits for the copy
        // (WatchedChild.wait) and so outlives it. A parent gone before this line leaves the
        // copy nobody to report to.
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(1);
        signalscope_allocations_pause_in_child();
        int crashes[] = { SIGSEGV, SIGBUS, SIGILL, SIGABRT, SIGFPE, SIGTRAP };
        for (size_t i = 0; i < sizeof crashes / sizeof *crashes; i++) signal(crashes[i], SIG_DFL);
    }
    return pid;
}

int signalscope_anonymous_file(void) {
    return memfd_create("signalscope", MFD_CLOEXEC);
}

int signalscope_thread_count(void) {
    DIR *tasks = opendir("/proc/self/task");
    if (tasks == NULL) return 0;
    int count = 0;
    struct dirent *item;
    while ((item = readdir(tasks)) != NULL) {
        if (item->d_name[0] != '.') count++;
    }
    closedir(tasks);
    return count;
}
