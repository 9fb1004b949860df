#ifndef PERFKIT_ALLOCATION_HOOKS_H
#define PERFKIT_ALLOCATION_HOOKS_H
// jemalloc's allocation hooks around one async exact-count window (ExactAllocationCounter): frees
// that other threads make of blocks in the window's arena, which their thread caches would return
// to the arena only later.

/// Starts counting frees, on any thread, of blocks in arena `arena`, and allocations made on
/// threads other than the calling one. One window at a time in a process.
/// Returns 0, or -1 when there is no jemalloc, its hooks are refused, or a window is open.
int perfkit_hooks_begin(unsigned arena);

/// Frees of the window's blocks counted so far.
unsigned long perfkit_hooks_frees(void);

/// Stops counting (after a begin that returned 0) and writes what was counted: frees of the
/// window's blocks (on any thread) and allocations on other threads.
void perfkit_hooks_end(unsigned long *frees, unsigned long *other_mallocs);
/// Frames kept of the stack that made each tracked allocation.
#define PERFKIT_HOOK_FRAMES 12

/// After perfkit_hooks_end: the allocations the window's thread made that were still live, at most
/// `capacity` of them, each as PERFKIT_HOOK_FRAMES return addresses (zero-padded) into `frames`.
/// Returns how many, or -1 when more were live than the window could track (4,096).
int perfkit_hooks_outstanding(void **frames, int capacity);

/// The library `address` is in, its load address and the exported symbol it is in, if any
/// (`dladdr`): 1, or 0 when it is in no loaded object.
int perfkit_symbol_of(const void *address, const char **symbol, const char **library, const void **base);
#endif
