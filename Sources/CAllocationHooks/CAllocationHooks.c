// jemalloc 5's experimental allocation hooks (`experimental.hooks.install`, include/jemalloc/
// internal/hook.h): called on every thread for every allocation and free while installed (they put
// every thread on jemalloc's slow path, so they are installed only around an exact-count window).
//
// Why: a block the measured body allocates and another thread frees (a Dispatch queue resuming the
// body, a continuation's context) goes into that thread's cache, and reaches the arena's counters
// only when that cache is flushed, long after the window closed: the body read one leaked
// allocation a call that it never leaked. The hook sees the free when it happens, on any thread;
// frees are counted here only (not also from the arena's counters, which a cache flush on another
// thread during the window would have counted twice).
#define _GNU_SOURCE
#include "CAllocationHooks.h"
#include <dlfcn.h>
// jemalloc on Linux only: the Portable trait, and other systems, take the stubs below.
#if defined(__linux__) && !defined(PERFKIT_PORTABLE)
#include <execinfo.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

// Weak: a process built without the Jemalloc trait has no mallctl, and then no window is counted.
extern int mallctl(const char *, void *, size_t *, void *, size_t) __attribute__((weak));

typedef void (*perfkit_hook_alloc)(void *, int, void *, uintptr_t, uintptr_t[3]);
typedef void (*perfkit_hook_dalloc)(void *, int, void *, uintptr_t[3]);
typedef void (*perfkit_hook_expand)(void *, int, void *, size_t, size_t, uintptr_t, uintptr_t[4]);
typedef struct {
    perfkit_hook_alloc alloc_hook;
    perfkit_hook_dalloc dalloc_hook;
    perfkit_hook_expand expand_hook;
    void *extra;
} perfkit_hooks_t;

static atomic_int window_open;
static pthread_t window_thread;
static atomic_ulong frees_in_arena;
static atomic_ulong mallocs_elsewhere;
static void *handle;

// The window thread's live allocations, by address, with the stack that made each: what is still
// live when the window closes is what the call kept, and its stacks say where it was allocated.
// Mapped once and never freed (a hook must not call malloc); a spin lock, because the window's
// thread inserts while any thread may free.
#define PERFKIT_SLOTS 8192
#define PERFKIT_LIVE_LIMIT 4096
struct perfkit_entry {
    void *address;
    void *frames[PERFKIT_HOOK_FRAMES];
};
static struct perfkit_entry *table;
static int live;
static int overflowed;
static atomic_flag table_lock = ATOMIC_FLAG_INIT;
#define PERFKIT_TOMBSTONE ((void *)1)

static size_t perfkit_slot(void *address) { return ((uintptr_t)address >> 4) * 0x9E3779B97F4A7C15ull >> 51; }

static void perfkit_track(void *address) {
    void *frames[PERFKIT_HOOK_FRAMES + 2];
    int depth = backtrace(frames, PERFKIT_HOOK_FRAMES + 2);
    while (atomic_flag_test_and_set_explicit(&table_lock, memory_order_acquire)) {}
    if (live >= PERFKIT_LIVE_LIMIT) {
        overflowed = 1;
    } else {
        size_t slot = perfkit_slot(address);
        while (table[slot].address && table[slot].address != PERFKIT_TOMBSTONE) slot = (slot + 1) % PERFKIT_SLOTS;
        table[slot].address = address;
        memset(table[slot].frames, 0, sizeof table[slot].frames);
        // The first two frames are this function and the hook.
        for (int i = 2; i < depth; i++) table[slot].frames[i - 2] = frames[i];
        live += 1;
    }
    atomic_flag_clear_explicit(&table_lock, memory_order_release);
}

// Removes `address` from the table: 1 when it was there (a block the window's thread allocated
// during the window), else 0.
static int perfkit_untrack(void *address) {
    int found = 0;
    while (atomic_flag_test_and_set_explicit(&table_lock, memory_order_acquire)) {}
    for (size_t slot = perfkit_slot(address), probes = 0; table[slot].address && probes < PERFKIT_SLOTS;
         slot = (slot + 1) % PERFKIT_SLOTS, probes++) {
        if (table[slot].address == address) {
            table[slot].address = PERFKIT_TOMBSTONE;
            live -= 1;
            found = 1;
            break;
        }
    }
    atomic_flag_clear_explicit(&table_lock, memory_order_release);
    return found;
}

static void perfkit_on_alloc(void *extra, int type, void *result, uintptr_t raw, uintptr_t args[3]) {
    (void)extra, (void)type, (void)raw, (void)args;
    if (!pthread_equal(pthread_self(), window_thread)) {
        atomic_fetch_add(&mallocs_elsewhere, 1);
    } else if (result) {
        perfkit_track(result);
    }
}

// A free of a block the window's thread allocated during the window, on any thread: counted when
// it is made. The table says whose block it is, so the hook calls no mallctl. (Parallel test runs
// crashed inside jemalloc with the hooks installed, with and without a mallctl here; they are
// installed only where one test runs at a time: ExactAllocationCounter.Window.hooksAllowed.)
static void perfkit_on_dalloc(void *extra, int type, void *address, uintptr_t args[3]) {
    (void)extra, (void)type, (void)args;
    if (!address || !perfkit_untrack(address)) return;
    atomic_fetch_add(&frees_in_arena, 1);
}

int perfkit_hooks_begin(unsigned arena) {
    if (!mallctl) return -1;
    int closed = 0;
    if (!atomic_compare_exchange_strong(&window_open, &closed, 1)) return -1;
    if (!table) {
        void *mapped = mmap(NULL, sizeof(struct perfkit_entry) * PERFKIT_SLOTS, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mapped == MAP_FAILED) {
            atomic_store(&window_open, 0);
            return -1;
        }
        table = mapped;
        void *frames[4];
        backtrace(frames, 4);  // its first call loads the unwinder, which allocates: not inside a hook
    }
    memset(table, 0, sizeof(struct perfkit_entry) * PERFKIT_SLOTS);
    live = 0;
    overflowed = 0;
    window_thread = pthread_self();
    (void)arena;
    atomic_store(&frees_in_arena, 0);
    atomic_store(&mallocs_elsewhere, 0);
    perfkit_hooks_t hooks = {perfkit_on_alloc, perfkit_on_dalloc, NULL, NULL};
    size_t size = sizeof handle;
    if (mallctl("experimental.hooks.install", &handle, &size, &hooks, sizeof hooks) != 0) {
        atomic_store(&window_open, 0);
        return -1;
    }
    return 0;
}

unsigned long perfkit_hooks_frees(void) { return atomic_load(&frees_in_arena); }

void perfkit_hooks_end(unsigned long *frees, unsigned long *other_mallocs) {
    if (!atomic_load(&window_open)) return;
    mallctl("experimental.hooks.remove", NULL, NULL, &handle, sizeof handle);
    *frees = atomic_load(&frees_in_arena);
    *other_mallocs = atomic_load(&mallocs_elsewhere);
    atomic_store(&window_open, 0);
}

int perfkit_hooks_outstanding(void **frames, int capacity) {
    if (overflowed) return -1;
    int count = 0;
    for (size_t slot = 0; slot < PERFKIT_SLOTS && count < capacity; slot++) {
        void *address = table[slot].address;
        if (!address || address == PERFKIT_TOMBSTONE) continue;
        memcpy(frames + (size_t)count * PERFKIT_HOOK_FRAMES, table[slot].frames, sizeof table[slot].frames);
        count += 1;
    }
    return count;
}
#else
int perfkit_hooks_begin(unsigned arena) {
    (void)arena;
    return -1;
}
unsigned long perfkit_hooks_frees(void) { return 0; }
void perfkit_hooks_end(unsigned long *frees, unsigned long *other_mallocs) {
    *frees = 0;
    *other_mallocs = 0;
}
int perfkit_hooks_outstanding(void **frames, int capacity) {
    (void)frames;
    (void)capacity;
    return 0;
}
#endif

int perfkit_symbol_of(const void *address, const char **symbol, const char **library, const void **base) {
    Dl_info info;
    if (!dladdr(address, &info)) return 0;
    *symbol = info.dli_sname;
    *library = info.dli_fname ? info.dli_fname : "";
    *base = info.dli_fbase;
    return 1;
}
