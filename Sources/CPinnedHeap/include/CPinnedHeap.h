#ifndef PERFKIT_CPINNEDHEAP_H
#define PERFKIT_CPINNEDHEAP_H
#include <pthread.h>
// A heap that repeats, for counting runs: a jemalloc arena whose extents come, in order, from one
// reserved address range at a fixed address, used by one thread only (the measured thread, which
// runs a test's set-up and counted bodies and nothing else). Given the same sequence of allocation
// requests, that thread gets the same addresses in every run and every build, whatever the rest of
// the process allocated: hash tables seeded by storage addresses, dictionaries keyed by
// ObjectIdentifier and orders taken from pointers then count the same. Without jemalloc in the
// process (the Jemalloc trait off) every function reports "unavailable" and does nothing.

/// Creates the arena and reserves its range once per process. Returns 0 on success, else a
/// negative code: -1 no jemalloc, -2 the range could not be reserved at its address, -3 the arena
/// could not be created.
int perfkit_pinned_heap_prepare(void);

/// Binds the calling thread to the pinned arena for good, with its thread cache on (counting
/// processes turn it off for every other thread, so their frees of the measured thread's blocks
/// go straight back to the arena at the point they are made). Returns 0, or -1 when not prepared.
int perfkit_pinned_heap_bind_this_thread(void);

/// Makes the Swift runtime's metadata allocator continue on a new page the calling thread mallocs
/// (on the pinned heap, so at the same address in every run), so the type metadata instantiated next
/// sits at the same addresses whatever the harness's threads instantiated before, in whatever order.
/// Returns 0, or -1 when the runtime does not publish its allocator's state (or keeps trailers on
/// its pages, or the processor is neither x86_64 nor arm64).
int perfkit_pinned_heap_fresh_metadata_page(void);

/// Gives the calling (measured) thread a new arena over the pinned range, starting at the next
/// 128 MiB boundary above what earlier test cases used, after flushing its cache: each test case's
/// heap then starts at the same address in every run, whenever the harness's threads free what the
/// previous case left. Returns 0, or -1 when there is no pinned heap, the range ran out, or
/// jemalloc refused.
int perfkit_pinned_heap_fresh_arena(void);

/// Instantiates `n` (at most 60) tuple types of `element` that nothing else uses, so the metadata
/// the process instantiates next sits elsewhere: tests shift the harness's metadata with it, as they
/// shift its heap, to show that the measured thread's metadata do not move. Returns 0, or -1.
int perfkit_shift_metadata_pool(int n, const void *element);

/// Bytes of the reserved range handed out so far, and whether a request ever fell outside it (then
/// addresses no longer repeat; the run says so).
unsigned long long perfkit_pinned_heap_used(void);
int perfkit_pinned_heap_overflowed(void);

/// Gives `attributes` a stack at a fixed address (mapped here, once per process: the measured
/// thread's), so the thread's identity and stack addresses repeat whatever threads came before.
/// Returns 0, or -1 when the address is taken.
int perfkit_pinned_heap_thread_stack(pthread_attr_t *attributes);

/// Calls `body(context)` with the stack pointer at a fixed depth of the measured thread's stack (1 MiB below its top),
/// whatever frames are above; elsewhere (another thread, or deeper already) calls it at once.
void perfkit_pinned_heap_at_fixed_depth(void (*body)(void *), void *context);

/// What of the measured thread could not be made to repeat, as bits: the metadata page
/// (``perfkit_pinned_heap_fresh_metadata_page`` failed), the stack (its address was taken) and a
/// test case's arena (``perfkit_pinned_heap_fresh_arena`` failed).
#define PERFKIT_UNREPEATED_METADATA 1
#define PERFKIT_UNREPEATED_STACK 2
#define PERFKIT_UNREPEATED_ARENA 4
int perfkit_pinned_heap_unrepeated(void);

/// The range's fixed start address.
unsigned long long perfkit_pinned_heap_base(void);
#endif
