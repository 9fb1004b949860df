// A sigsuspend that copies its mask before the system call.
//
// libdispatch's main-thread wait passes a mask kept in read-only memory (a static const
// sigset_t); valgrind's rt_sigsuspend wrapper edits the mask in place (it removes its own kill
// signal), which faults and kills every Swift Testing run under valgrind ("VALGRIND INTERNAL
// ERROR ... SIGSEGV"). Preloaded, this definition takes the call and hands valgrind a writable
// copy. Not fixed upstream as of valgrind 3.28. Behaviour is otherwise glibc's.
#define _GNU_SOURCE
#include "PerfKitValgrindShim.h"
#include <sys/syscall.h>
#include <unistd.h>

int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, _NSIG / 8);
}
