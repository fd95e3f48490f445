#define _GNU_SOURCE
#include "CSandbox.h"
#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

static bool install(struct sock_filter *filter, unsigned short count) {
    struct sock_fprog program = { count, filter };
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return false;
    return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) == 0;
}

#define DENY(error) BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((error) & SECCOMP_RET_DATA))
#define ALLOW BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW)

bool signalscope_test_deny_process_vm_readv(void) {
    struct sock_filter filter[] = {
        /* 0 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        /* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_readv, 0, 1),
        /* 2 */ DENY(EPERM),
        /* 3 */ ALLOW,
    };
    return install(filter, sizeof filter / sizeof filter[0]);
}

bool signalscope_test_deny_fork_and_process_vm_readv(void) {
    struct sock_filter filter[] = {
        /* 0 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
        /* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_process_vm_readv, 4, 0),
        // clone3 keeps its flags in memory a filter cannot read: refuse it as unknown, so
        // that the C library falls back to clone for threads.
        /* 2 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone3, 5, 0),
        /* 3 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 3),
        // A thread shares the address space (CLONE_VM); a fork does not.
        /* 4 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
        /* 5 */ BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_VM, 1, 0),
        /* 6 */ DENY(EPERM),
        /* 7 */ ALLOW,
        /* 8 */ DENY(ENOSYS),
    };
    return install(filter, sizeof filter / sizeof filter[0]);
}
