#define _GNU_SOURCE
#include "CTracingSupport.h"
#include <malloc.h>
#include <sys/uio.h>
#include <unistd.h>

bool signalscope_read_memory(void *destination, const void *address, size_t count) {
    if (address == NULL) return false;
    struct iovec local = { destination, count };
    struct iovec remote = { (void *)address, count };
    // Reading our own memory through the kernel reports an unmapped address as an error
    // instead of a segmentation fault.
    return process_vm_readv(getpid(), &local, 1, &remote, 1, 0) == (ssize_t)count;
}

size_t signalscope_heap_block_size(void *block) {
    return malloc_usable_size(block);
}
