#include "CPinnedHeap.h"
// Linux only (the Portable trait, and other systems, take the stubs at the end): fixed-address mappings, jemalloc's
// extent hooks and the Swift runtime's metadata allocator are what a counting run pins, and counting runs are Linux's.
#if defined(__linux__) && !defined(PERFKIT_PORTABLE)
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <pthread.h>
#include <alloca.h>
#include <sys/mman.h>

// The Swift runtime's metadata allocator state, as its debugging SPI publishes it for swift-inspect
// (swift/Runtime/Debug.h, stdlib/public/runtime/Metadata.cpp): `_swift_debug_allocationPoolPointer`
// points to the allocator's current page, `{char *Begin; size_t Remaining;}`, one 16-byte atomic
// that the runtime's `MetadataAllocator::Allocate` bumps with a compare-and-swap. Weak, so that a
// C-only process links and a runtime without them is told apart.
extern const void *const _swift_debug_allocationPoolPointer __attribute__((weak));
extern const size_t _swift_debug_metadataAllocatorPageSize __attribute__((weak));
extern const bool _swift_debug_metadataAllocationIterationEnabled __attribute__((weak));

#if defined(__x86_64__) || defined(__aarch64__)
#define PERFKIT_POOL_SWAP 1
#else
#define PERFKIT_POOL_SWAP 0
#endif

// The Swift runtime's tuple metadata entry point (swift/Runtime/Metadata.h), weak so that a C-only
// process links. The response is two words, returned in registers.
typedef struct {
    const void *value;
    size_t state;
} perfkit_metadata_response;
extern perfkit_metadata_response swift_getTupleTypeMetadata(size_t request, size_t flags, const void *const *elements,
                                                            const char *labels, const void *witnesses)
    __attribute__((weak));

int perfkit_shift_metadata_pool(int n, const void *element) {
    if (swift_getTupleTypeMetadata == NULL || element == NULL || n < 0 || n > 60) return -1;
    const void *elements[64];
    for (int i = 0; i < 64; i++) elements[i] = element;
    // Tuples of 3 to n + 2 elements: n types of their own, so each takes metadata from the pool.
    for (int k = 0; k < n; k++) (void)swift_getTupleTypeMetadata(0, (size_t)(k + 3), elements, NULL, NULL);
    return 0;
}

// Replaces the 16 bytes at `target` by {begin, remaining} when they still hold `*seen`.
static bool perfkit_swap_pool(volatile void *target, uintptr_t seen[2], uintptr_t begin, uintptr_t remaining) {
#if defined(__x86_64__)
    bool swapped;
    __asm__ __volatile__("lock cmpxchg16b %1"
                         : "=@ccz"(swapped), "+m"(*(volatile unsigned __int128 *)target), "+a"(seen[0]), "+d"(seen[1])
                         : "b"(begin), "c"(remaining)
                         : "memory");
    return swapped;
#elif defined(__aarch64__)
    unsigned __int128 expected = ((unsigned __int128)seen[1] << 64) | seen[0];
    unsigned __int128 desired = ((unsigned __int128)remaining << 64) | begin;
    bool swapped = __atomic_compare_exchange_n((volatile unsigned __int128 *)target, &expected, desired, false,
                                               __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    seen[0] = (uintptr_t)expected;
    seen[1] = (uintptr_t)(expected >> 64);
    return swapped;
#else
    (void)target; (void)seen; (void)begin; (void)remaining;
    return false;
#endif
}

static int fresh_metadata_page(void) {
    if (!(PERFKIT_POOL_SWAP)) return -1;
    if (&_swift_debug_allocationPoolPointer == NULL || &_swift_debug_metadataAllocatorPageSize == NULL) return -1;
    // With allocation iteration on, the runtime keeps a trailer at each page's end: leave it alone.
    if (&_swift_debug_metadataAllocationIterationEnabled != NULL && _swift_debug_metadataAllocationIterationEnabled)
        return -1;
    size_t size = _swift_debug_metadataAllocatorPageSize;
    // A page as the runtime makes one (`new char[PageSize]`, never freed), malloc'd by the calling
    // thread: on the pinned heap, at the same address in every run. What the old page had left is
    // abandoned, as the runtime abandons it when a request does not fit.
    char *page = malloc(size);
    if (page == NULL) return -1;
    volatile uintptr_t *pool = (volatile uintptr_t *)_swift_debug_allocationPoolPointer;
    uintptr_t seen[2] = {pool[0], pool[1]};
    while (!perfkit_swap_pool(pool, seen, (uintptr_t)page, size)) {
    }
    return 0;
}

// jemalloc's extent hooks (jemalloc 5's `extent_hooks_t`, `include/jemalloc/jemalloc_typedefs.h.in`),
// declared here rather than taken from <jemalloc/jemalloc.h>: whether the header was installed
// when this file was first compiled must not decide, silently and for good, whether a later
// counting run pins its heap (a build made before `apt-get install libjemalloc-dev` kept the stub
// that pins nothing). Whether jemalloc is the allocator is decided when the process runs
// (``mallctl`` is weak), and a process without it says so.
typedef struct perfkit_extent_hooks perfkit_extent_hooks;
struct perfkit_extent_hooks {
    void *(*alloc)(perfkit_extent_hooks *, void *, size_t, size_t, bool *, bool *, unsigned);
    bool (*dalloc)(perfkit_extent_hooks *, void *, size_t, bool, unsigned);
    void (*destroy)(perfkit_extent_hooks *, void *, size_t, bool, unsigned);
    bool (*commit)(perfkit_extent_hooks *, void *, size_t, size_t, size_t, unsigned);
    bool (*decommit)(perfkit_extent_hooks *, void *, size_t, size_t, size_t, unsigned);
    bool (*purge_lazy)(perfkit_extent_hooks *, void *, size_t, size_t, size_t, unsigned);
    bool (*purge_forced)(perfkit_extent_hooks *, void *, size_t, size_t, size_t, unsigned);
    bool (*split)(perfkit_extent_hooks *, void *, size_t, size_t, size_t, bool, unsigned);
    bool (*merge)(perfkit_extent_hooks *, void *, size_t, void *, size_t, bool, unsigned);
};
typedef perfkit_extent_hooks extent_hooks_t;

// Weak: a process built without the Jemalloc trait has no mallctl, and then nothing is pinned.
extern int mallctl(const char *, void *, size_t *, void *, size_t) __attribute__((weak));

// 0x5e00_0000_0000: far above where the process's own mappings go with ASLR off (below 0x7fff…
// for stacks and libraries, near 0x5555… and 0x4000… for the executable under valgrind) and far
// below the top of user space; 16 GiB reserved, never touched until handed out (MAP_NORESERVE).
static const uintptr_t base_address = 0x5e0000000000ULL;
static const size_t reserved = (size_t)16 << 30;
static uintptr_t next_free = 0;
static int arena_index = -1;
static int overflowed = 0;

static void *extent_alloc(extent_hooks_t *hooks, void *new_addr, size_t size, size_t alignment, bool *zero,
                          bool *commit, unsigned arena) {
    (void)hooks;
    (void)arena;
    uintptr_t start = (next_free + alignment - 1) & ~(uintptr_t)(alignment - 1);
    if (new_addr != NULL && (uintptr_t)new_addr != start) return NULL;  // only the next extent, in order
    if (start + size > base_address + reserved) {
        overflowed = 1;
        return NULL;  // jemalloc then fails this request; the run reports the overflow
    }
    next_free = start + size;
    *zero = true;  // fresh anonymous memory, never handed out before
    *commit = true;
    return (void *)start;
}

// Extents are never given back to the system (jemalloc keeps and reuses them, decay being off in
// counting runs): the range is handed out once, in order, so addresses repeat. Splitting and
// merging succeed (false): the range is one mapping.
static bool extent_dalloc(extent_hooks_t *h, void *a, size_t s, bool c, unsigned i) { return true; }
static void extent_destroy(extent_hooks_t *h, void *a, size_t s, bool c, unsigned i) {}
static bool extent_commit(extent_hooks_t *h, void *a, size_t s, size_t o, size_t l, unsigned i) { return false; }
static bool extent_decommit(extent_hooks_t *h, void *a, size_t s, size_t o, size_t l, unsigned i) { return true; }
static bool extent_purge(extent_hooks_t *h, void *a, size_t s, size_t o, size_t l, unsigned i) { return true; }
static bool extent_split(extent_hooks_t *h, void *a, size_t s, size_t sa, size_t sb, bool c, unsigned i) {
    return false;
}
static bool extent_merge(extent_hooks_t *h, void *a, size_t sa, void *b, size_t sb, bool c, unsigned i) {
    return false;
}

static extent_hooks_t hooks = {
    extent_alloc, extent_dalloc, extent_destroy, extent_commit, extent_decommit,
    extent_purge, extent_purge, extent_split, extent_merge,
};

// A new arena over the pinned range (its extents from `next_free` on, in order), made the current
// one (`arena_index`). Returns 0, or -1 when jemalloc refused.
static int create_arena(void) {
    unsigned index = 0;
    size_t size = sizeof(index);
    extent_hooks_t *pointer = &hooks;
    if (mallctl("arenas.create", &index, &size, &pointer, sizeof(pointer)) != 0) return -1;
    arena_index = (int)index;
    return 0;
}

int perfkit_pinned_heap_prepare(void) {
    if (arena_index >= 0) return 0;
    if (mallctl == NULL) return -1;
    void *range = mmap((void *)base_address, reserved, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (range == MAP_FAILED) return -2;
    if ((uintptr_t)range != base_address) {
        munmap(range, reserved);
        return -2;
    }
    next_free = base_address;
    return create_arena() == 0 ? 0 : -3;
}

int perfkit_pinned_heap_bind_this_thread(void) {
    if (arena_index < 0 || mallctl == NULL) return -1;
    unsigned next = (unsigned)arena_index;
    if (mallctl("thread.arena", NULL, NULL, &next, sizeof(next)) != 0) return -1;
    bool enabled = true;
    if (mallctl("thread.tcache.enabled", NULL, NULL, &enabled, sizeof(enabled)) != 0) return -1;
    return 0;
}

// Where each test case's heap starts: the next multiple of this above what earlier cases used.
static const size_t case_slot = (size_t)128 << 20;

// A test case's own arena, over the pinned range from the next slot boundary, bound to the calling
// (measured) thread after its cache is flushed. The previous case's blocks stay in the previous
// arena: when the harness's threads free them (a finished test case's task and results, whenever
// those threads get to it), they go back there, not into the bins this case allocates from. With
// one arena for all of a parameterized test's cases, such a late free changed where the next
// case's first sample put its hash table (an OrderedDictionary 1,481 instructions apart, 0.07%).
static int fresh_arena(void) {
    if (arena_index < 0 || mallctl == NULL) return -1;
    if (mallctl("thread.tcache.flush", NULL, NULL, NULL, 0) != 0) return -1;
    uintptr_t start = (next_free + case_slot - 1) & ~(uintptr_t)(case_slot - 1);
    if (start >= base_address + reserved) {
        overflowed = 1;
        return -1;
    }
    next_free = start;
    if (create_arena() != 0) return -1;
    unsigned index = (unsigned)arena_index;
    return mallctl("thread.arena", NULL, NULL, &index, sizeof(index)) == 0 ? 0 : -1;
}

unsigned long long perfkit_pinned_heap_used(void) {
    return arena_index < 0 ? 0 : (unsigned long long)(next_free - base_address);
}
int perfkit_pinned_heap_overflowed(void) { return overflowed; }
unsigned long long perfkit_pinned_heap_base(void) { return (unsigned long long)base_address; }

// The measured thread's stack, at a fixed address below the pinned range: where glibc would put it
// follows how many threads the harness made before, and so did the thread's identity.
static const uintptr_t stack_address = 0x5d0000000000ULL;
static const size_t stack_size = (size_t)8 << 20;

static int thread_stack(pthread_attr_t *attributes) {
    void *stack = mmap((void *)stack_address, stack_size, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) return -1;
    if ((uintptr_t)stack != stack_address) {
        munmap(stack, stack_size);
        return -1;
    }
    return pthread_attr_setstack(attributes, stack, stack_size) == 0 ? 0 : -1;
}

// What did not repeat, set by the measured thread and read after its samples (as `overflowed` is).
static int unrepeated = 0;

int perfkit_pinned_heap_fresh_metadata_page(void) {
    int status = fresh_metadata_page();
    if (status != 0) unrepeated |= PERFKIT_UNREPEATED_METADATA;
    return status;
}

int perfkit_pinned_heap_fresh_arena(void) {
    int status = fresh_arena();
    if (status != 0) unrepeated |= PERFKIT_UNREPEATED_ARENA;
    return status;
}

int perfkit_pinned_heap_thread_stack(pthread_attr_t *attributes) {
    int status = thread_stack(attributes);
    if (status != 0) unrepeated |= PERFKIT_UNREPEATED_STACK;
    return status;
}

int perfkit_pinned_heap_unrepeated(void) { return unrepeated; }

// The depth the measured thread's counted regions start at: 1 MiB below its stack's top. The harness's frames above a
// region (the runner, the counter, the hand-over to this thread) are padded out to it, so the body's frames sit at the
// same addresses whatever those frames' sizes, which change with PerfKit's own code.
static const uintptr_t fixed_depth = stack_address + stack_size - ((uintptr_t)1 << 20);

void perfkit_pinned_heap_at_fixed_depth(void (*body)(void *), void *context) {
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    if (here > fixed_depth && here < stack_address + stack_size) {
        volatile char *pad = alloca(here - fixed_depth);
        pad[0] = 0;
        __asm__ volatile("" : : "r"(pad) : "memory");
    }
    body(context);
}
#else
// The portable path: nothing is pinned; the measured thread is a plain thread.
int perfkit_pinned_heap_prepare(void) { return -5; }
int perfkit_pinned_heap_bind_this_thread(void) { return -1; }
int perfkit_pinned_heap_fresh_metadata_page(void) { return -1; }
int perfkit_pinned_heap_fresh_arena(void) { return -1; }
int perfkit_shift_metadata_pool(int n, const void *element) {
    (void)n;
    (void)element;
    return -1;
}
unsigned long long perfkit_pinned_heap_used(void) { return 0; }
int perfkit_pinned_heap_overflowed(void) { return 0; }
int perfkit_pinned_heap_thread_stack(pthread_attr_t *attributes) {
    (void)attributes;
    return -1;
}
void perfkit_pinned_heap_at_fixed_depth(void (*body)(void *), void *context) { body(context); }
int perfkit_pinned_heap_unrepeated(void) { return 0; }
unsigned long long perfkit_pinned_heap_base(void) { return 0; }
#endif
