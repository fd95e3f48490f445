#define _GNU_SOURCE
#include "CTracingSupport.h"
#include <dlfcn.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/uio.h>
#include <unistd.h>

// The C library no longer caches the pid, and the capture scanner reads memory often
// enough for that system call to show; a forked child forgets the parent's.
static _Atomic pid_t own_pid;
static pthread_once_t fork_handler_installed = PTHREAD_ONCE_INIT;

static void forget_pid(void) { atomic_store(&own_pid, 0); }

static void install_fork_handler(void) { pthread_atfork(NULL, NULL, forget_pid); }

static pid_t current_pid(void) {
    pid_t pid = atomic_load(&own_pid);
    if (pid == 0) {
        pthread_once(&fork_handler_installed, install_fork_handler);
        pid = getpid();
        atomic_store(&own_pid, pid);
    }
    return pid;
}

// In a forked child the address space is frozen, so reads check the address against the
// map of readable ranges taken at its start and copy directly, instead of asking the kernel.
typedef struct { uintptr_t start, end; } readable_range;
static readable_range *frozen_ranges;
static size_t frozen_range_count;

static bool frozen_contains(uintptr_t address, size_t count) {
    size_t low = 0, high = frozen_range_count;
    while (low < high) {
        size_t middle = (low + high) / 2;
        if (frozen_ranges[middle].end <= address) low = middle + 1; else high = middle;
    }
    return low < frozen_range_count && frozen_ranges[low].start <= address && address + count >= address
        && address + count <= frozen_ranges[low].end;
}

bool signalscope_freeze_address_space(void) {
    // Freed memory stays mapped: no trimming of the heap's top, no large blocks of their own.
    mallopt(M_TRIM_THRESHOLD, -1);
    mallopt(M_MMAP_MAX, 0);
    FILE *maps = fopen("/proc/self/maps", "r");
    if (maps == NULL) return false;
    size_t capacity = 256, count = 0;
    readable_range *ranges = malloc(capacity * sizeof *ranges);
    char line[4096];
    while (ranges && fgets(line, sizeof line, maps)) {
        unsigned long start, end;
        char permissions[5] = { 0 };
        int path = 0;
        if (sscanf(line, "%lx-%lx %4s %*s %*s %*s %n", &start, &end, permissions, &path) < 3) continue;
        // Readable, and not a file mapped shared (which a truncation could make fault).
        const char *name = line + path;
        bool shared_file = permissions[3] == 's' && name[0] == '/';
        if (permissions[0] != 'r' || shared_file || strncmp(name, "[vvar", 5) == 0) continue;
        if (count > 0 && ranges[count - 1].end == start) {
            ranges[count - 1].end = end;
            continue;
        }
        if (count == capacity) {
            readable_range *grown = realloc(ranges, 2 * capacity * sizeof *ranges);
            if (grown == NULL) break;
            ranges = grown;
            capacity *= 2;
        }
        ranges[count++] = (readable_range){ start, end };
    }
    fclose(maps);
    if (ranges == NULL) return false;
    frozen_ranges = ranges;
    frozen_range_count = count;
    return true;
}

// Reads of the frozen copy go anywhere in the heap, freed blocks and allocators' own words
// included: that is the walk's job, so sanitizers must not check them (nor may the copy
// become a call to the memcpy they intercept).
__attribute__((no_sanitize("address", "thread"), no_builtin("memcpy")))
static void copy_unchecked(void *destination, const void *source, size_t count) {
    unsigned char *to = destination;
    const unsigned char *from = source;
    for (size_t i = 0; i < count; i++) to[i] = from[i];
}

__attribute__((no_sanitize("address", "thread")))
static uintptr_t word_unchecked(uintptr_t address) {
    return *(const uintptr_t *)address;
}

bool signalscope_read_memory(void *destination, const void *address, size_t count) {
    if (address == NULL) return false;
    if (frozen_ranges) {
        if (!frozen_contains((uintptr_t)address, count)) return false;
        copy_unchecked(destination, address, count);
        return true;
    }
    struct iovec local = { destination, count };
    struct iovec remote = { (void *)address, count };
    // Reading our own memory through the kernel reports an unmapped address as an error
    // instead of a segmentation fault.
    return process_vm_readv(current_pid(), &local, 1, &remote, 1, 0) == (ssize_t)count;
}

// Many words, one element each, up to 256 a read.
static void read_each_word(const uintptr_t *addresses, uintptr_t *values, bool *readable, size_t count) {
    enum { batch = 256 };
    struct iovec local[batch], remote[batch];
    size_t start = 0;
    while (start < count) {
        size_t n = count - start < batch ? count - start : batch;
        for (size_t i = 0; i < n; i++) {
            local[i] = (struct iovec){ &values[start + i], sizeof(uintptr_t) };
            remote[i] = (struct iovec){ (void *)addresses[start + i], sizeof(uintptr_t) };
        }
        // The kernel stops at the first unreadable element and reports the bytes before it;
        // aligned words never straddle a page, so that is a whole number of elements.
        ssize_t bytes = process_vm_readv(current_pid(), local, n, remote, n, 0);
        size_t whole = bytes < 0 ? 0 : (size_t)bytes / sizeof(uintptr_t);
        for (size_t i = 0; i < whole; i++) readable[start + i] = true;
        if (whole < n) {
            readable[start + whole] = false;
            start += whole + 1;
        } else {
            start += n;
        }
    }
}

// Many words at once, page by page: the kernel pins each page an element of a read touches,
// so a word per element costs a page's pinning each, while the words of one page, read as
// that page, share it. The objects a program allocated together sit on few pages, so the
// elements are taken in order, a window at a time, until a window touches the most pages one
// read copies.
static bool read_words_by_page(const uintptr_t *addresses, uintptr_t *values, bool *readable, size_t count) {
    enum { pages_per_read = 32, page = 4096, words_per_page_read = 4 };
    unsigned char *buffer = malloc(pages_per_read * page);
    unsigned char *page_of = malloc(count);
    if (buffer == NULL || page_of == NULL) {
        free(buffer);
        free(page_of);
        return false;
    }
    for (size_t i = 0; i < count;) {
        uintptr_t pages[pages_per_read];
        size_t page_count = 0, end = i, last = 0;
        for (; end < count; end++) {
            uintptr_t start = addresses[end] & ~(uintptr_t)(page - 1);
            if (page_count > 0 && pages[last] == start) {
                page_of[end] = (unsigned char)last;
                continue;
            }
            size_t k = 0;
            while (k < page_count && pages[k] != start) k++;
            if (k == page_count) {
                if (page_count == pages_per_read) break;
                pages[page_count++] = start;
            }
            page_of[end] = (unsigned char)k;
            last = k;
        }
        // Words spread thinly over their pages (objects allocated apart, in a heap whose free
        // blocks are scattered) are read one element each: copying a whole page for a word
        // or two cost more than pinning the page once per word (an allocation table merged
        // this way took 500 ns an allocation in such a heap, against 70 in a fresh one).
        if (end - i < words_per_page_read * page_count) {
            read_each_word(addresses + i, values + i, readable + i, end - i);
            i = end;
            continue;
        }
        struct iovec local[pages_per_read], remote[pages_per_read];
        bool page_readable[pages_per_read];
        for (size_t k = 0; k < page_count; k++) {
            local[k] = (struct iovec){ buffer + k * page, page };
            remote[k] = (struct iovec){ (void *)pages[k], page };
        }
        // The kernel stops at the first unreadable page and reports the bytes before it.
        for (size_t done = 0; done < page_count;) {
            ssize_t bytes = process_vm_readv(current_pid(), local + done, page_count - done, remote + done, page_count - done, 0);
            size_t whole = bytes < 0 ? 0 : (size_t)bytes / page;
            for (size_t k = done; k < done + whole; k++) page_readable[k] = true;
            done += whole;
            if (done < page_count) page_readable[done++] = false;
        }
        for (size_t j = i; j < end; j++) {
            size_t k = page_of[j];
            readable[j] = page_readable[k] && addresses[j] % sizeof(uintptr_t) == 0;
            if (readable[j]) memcpy(&values[j], buffer + k * page + (addresses[j] - pages[k]), sizeof(uintptr_t));
        }
        i = end;
    }
    free(buffer);
    free(page_of);
    return true;
}

void signalscope_read_words(const uintptr_t *addresses, uintptr_t *values, bool *readable, size_t count) {
    if (frozen_ranges) {
        for (size_t i = 0; i < count; i++) {
            readable[i] = frozen_contains(addresses[i], sizeof(uintptr_t));
            if (readable[i]) values[i] = word_unchecked(addresses[i]);
        }
        return;
    }
    if (count >= 64 && read_words_by_page(addresses, values, readable, count)) return;
    read_each_word(addresses, values, readable, count);
}

size_t signalscope_heap_block_size(void *block) {
    return malloc_usable_size(block);
}

// An enum's value witness table extends the common one (eight functions, size, stride,
// flags, extra inhabitants) with getEnumTag and destructiveProjectEnumData, which use the
// Swift calling convention. The table pointer sits just before the metadata's address point.
typedef unsigned (*signalscope_get_enum_tag)(const void *, const void *) __attribute__((swiftcall));
typedef void (*signalscope_project_enum)(void *, const void *) __attribute__((swiftcall));

static const void *const *value_witnesses(const void *metadata) {
    return ((const void *const *const *)metadata)[-1];
}

unsigned signalscope_enum_tag(const void *value, const void *metadata) {
    return ((signalscope_get_enum_tag)value_witnesses(metadata)[11])(value, metadata);
}

void signalscope_project_enum_payload(void *value, const void *metadata) {
    ((signalscope_project_enum)value_witnesses(metadata)[12])(value, metadata);
}

bool signalscope_image_containing(const void *address, const char **path, uintptr_t *base) {
    Dl_info info;
    if (dladdr(address, &info) == 0 || info.dli_fname == NULL) return false;
    *path = info.dli_fname;
    *base = (uintptr_t)info.dli_fbase;
    return true;
}

__thread __attribute__((tls_model("initial-exec"))) void *signalscope_tracing_thread_slot;

// The runtime returns the object when it retained it and NULL when the object was already
// being deinitialized.
extern void *swift_tryRetain(void *object);

bool signalscope_try_retain(void *object) {
    return swift_tryRetain(object) != NULL;
}
