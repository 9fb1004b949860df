#define _GNU_SOURCE
#include "CMeasuredThread.h"
#include "PerfKitShimEntryPoints.h"
#include <stdatomic.h>
#include <stdlib.h>

// The preloaded shim's entry points this module calls (each NULL outside a counting run), looked up once.
static __typeof__(&perfkit_shim_set_idle) perfkit_shim_idle;
static __typeof__(&perfkit_shim_set_in_job) perfkit_shim_in_job;
static __typeof__(&perfkit_shim_await_blocks) perfkit_shim_await;

static void perfkit_find_shim(void) {
    perfkit_shim_idle = PERFKIT_SHIM_LOOKUP(perfkit_shim_set_idle);
    perfkit_shim_in_job = PERFKIT_SHIM_LOOKUP(perfkit_shim_set_in_job);
    perfkit_shim_await = PERFKIT_SHIM_LOOKUP(perfkit_shim_await_blocks);
    if (!perfkit_shim_await) perfkit_shim_idle = 0;  // a shim without it: neither is used
}

#if defined(__linux__) && !defined(PERFKIT_PORTABLE)
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

/* The doorbell the thread async bodies run on sleeps on. Its wait and ring take the same instructions
   whether or not the sleeper was already asleep when rung: a ring always makes the wake system call,
   and a wait rung before its futex call returns from that call at once (EAGAIN) and takes the ring
   on its next pass, as a sleeper woken does (the call made directly, so no errno path tells the two apart). (A DispatchSemaphore takes a shorter path when the ring
   comes first.) While the thread that reports idleness sleeps with nothing queued, the preloaded
   shim lets the Dispatch blocks its jobs queued run (perfkit_shim_set_idle); when it wakes, it waits
   for the blocks running to return (perfkit_shim_await_blocks). */
struct perfkit_doorbell {
    atomic_int rings;
    int reports_idle;
};

/* The futex system call made directly, its result not looked at. Through glibc's syscall(), a wait rung before it
   slept returns -EAGAIN and takes the wrapper's errno path, 4 instructions a woken wait does not take (26,743 against
   26,739 for one hand-off sample in a CI run): here both return the same way. */
static inline void perfkit_futex(atomic_int *address, int operation, int value) {
#if defined(__x86_64__)
    register long r10 __asm__("r10") = 0;
    long result;
    __asm__ __volatile__("syscall"
                         : "=a"(result)
                         : "0"((long)SYS_futex), "D"(address), "S"((long)operation), "d"((long)value), "r"(r10)
                         : "rcx", "r11", "memory");
    (void)result;
#elif defined(__aarch64__)
    register long x8 __asm__("x8") = SYS_futex;
    register long x0 __asm__("x0") = (long)address;
    register long x1 __asm__("x1") = operation;
    register long x2 __asm__("x2") = value;
    register long x3 __asm__("x3") = 0;
    __asm__ __volatile__("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
#else
    syscall(SYS_futex, address, operation, value, NULL, NULL, 0);
#endif
}

void *perfkit_doorbell_make(int reports_idle) {
    struct perfkit_doorbell *bell = calloc(1, sizeof *bell);
    if (bell) bell->reports_idle = reports_idle;
    perfkit_find_shim();
    return bell;
}

void perfkit_doorbell_wait(void *raw) {
    struct perfkit_doorbell *bell = raw;
    for (;;) {
        int rings = atomic_load(&bell->rings);
        if (rings > 0) {
            if (atomic_compare_exchange_weak(&bell->rings, &rings, rings - 1)) return;
            continue;
        }
        if (bell->reports_idle && perfkit_shim_idle) perfkit_shim_idle(1);
        perfkit_futex(&bell->rings, FUTEX_WAIT_PRIVATE, 0);
        if (bell->reports_idle && perfkit_shim_idle) {
            perfkit_shim_idle(0);
            perfkit_shim_await();
        }
    }
}

void perfkit_doorbell_ring(void *raw) {
    struct perfkit_doorbell *bell = raw;
    atomic_fetch_add(&bell->rings, 1);
    perfkit_futex(&bell->rings, FUTEX_WAKE_PRIVATE, 1);
}
#else
#include <pthread.h>

/* The portable doorbell (other systems, or the Portable trait): a count under a mutex and a condition variable. No
   counting run takes this path, so its instructions need not be the same whichever thread comes first. */
struct perfkit_doorbell {
    pthread_mutex_t lock;
    pthread_cond_t rung;
    int rings;
};

void *perfkit_doorbell_make(int reports_idle) {
    (void)reports_idle;
    struct perfkit_doorbell *bell = calloc(1, sizeof *bell);
    if (!bell) return NULL;
    pthread_mutex_init(&bell->lock, NULL);
    pthread_cond_init(&bell->rung, NULL);
    perfkit_find_shim();
    return bell;
}

void perfkit_doorbell_wait(void *raw) {
    struct perfkit_doorbell *bell = raw;
    pthread_mutex_lock(&bell->lock);
    while (bell->rings == 0) pthread_cond_wait(&bell->rung, &bell->lock);
    bell->rings -= 1;
    pthread_mutex_unlock(&bell->lock);
}

void perfkit_doorbell_ring(void *raw) {
    struct perfkit_doorbell *bell = raw;
    pthread_mutex_lock(&bell->lock);
    bell->rings += 1;
    pthread_cond_signal(&bell->rung);
    pthread_mutex_unlock(&bell->lock);
}
#endif

void perfkit_job_begin(void) {
    if (perfkit_shim_in_job) perfkit_shim_in_job(1);
}

void perfkit_job_end(void) {
    if (perfkit_shim_in_job) perfkit_shim_in_job(0);
}
