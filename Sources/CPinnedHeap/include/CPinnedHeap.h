#ifndef PERFKIT_CPINNEDHEAP_H
#define PERFKIT_CPINNEDHEAP_H
// A heap that repeats, for counting runs: a jemalloc arena whose extents come, in order, from one
// reserved address range at a fixed address, so a measured body that is given the same sequence of
// allocation requests gets the same addresses in every run and every build (hash tables seeded by
// storage addresses, dictionaries keyed by ObjectIdentifier, orders taken from pointers then count
// the same). Without jemalloc in the process (the Jemalloc trait off) every function reports
// "unavailable" and does nothing.

/// Creates the arena and reserves its range once per process. Returns 0 on success, else a
/// negative code: -1 no jemalloc, -2 the range could not be reserved at its address, -3 the arena
/// could not be created.
int perfkit_pinned_heap_prepare(void);

/// Binds the calling thread to the pinned arena; returns the arena it was bound to before (to give
/// to perfkit_pinned_heap_leave), or -1 when the heap is not prepared.
int perfkit_pinned_heap_enter(void);

/// Right after entering, before a counted region: settles jemalloc's per-thread address-map cache
/// on the pinned range, so what the harness looked up before does not change the body's count.
void perfkit_pinned_heap_settle(void);

/// Binds the calling thread back to `previous` (from perfkit_pinned_heap_enter).
void perfkit_pinned_heap_leave(int previous);

/// Bytes of the reserved range handed out so far, and whether a request ever fell outside it (then
/// addresses no longer repeat; the run says so).
unsigned long long perfkit_pinned_heap_used(void);
int perfkit_pinned_heap_overflowed(void);

/// The range's fixed start address.
unsigned long long perfkit_pinned_heap_base(void);
#endif
