#define _GNU_SOURCE
#include "CTracingSupport.h"
#include <dlfcn.h>
#include <malloc.h>
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

bool signalscope_read_memory(void *destination, const void *address, size_t count) {
    if (address == NULL) return false;
    struct iovec local = { destination, count };
    struct iovec remote = { (void *)address, count };
    // Reading our own memory through the kernel reports an unmapped address as an error
    // instead of a segmentation fault.
    return process_vm_readv(current_pid(), &local, 1, &remote, 1, 0) == (ssize_t)count;
}

void signalscope_read_words(const uintptr_t *addresses, uintptr_t *values, bool *readable, size_t count) {
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
