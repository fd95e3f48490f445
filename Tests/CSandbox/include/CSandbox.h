#ifndef CSANDBOX_H
#define CSANDBOX_H

#include <stdbool.h>

/// Makes `process_vm_readv` fail with EPERM for the rest of this process, as a restrictive
/// container's seccomp profile does; returns false if the kernel refused the filter. For
/// tests only, in a child process (an exit test): it cannot be undone.
bool signalscope_test_deny_process_vm_readv(void);

/// Makes `fork` fail with EPERM for the rest of this process (a `clone` that does not share
/// the address space), while threads can still be made; also denies `process_vm_readv`.
/// For tests only, in a child process.
bool signalscope_test_deny_fork_and_process_vm_readv(void);

#endif
