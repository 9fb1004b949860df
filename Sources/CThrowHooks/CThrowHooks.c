#include "CThrowHooks.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

// The runtime declares both as std::atomic of a function pointer (stdlib/public/runtime/
// ErrorObjectCommon.cpp), exported unmangled; an _Atomic pointer has the same size and
// representation. Swift Testing's own WillThrow.cpp reaches them the same way.
typedef void (*perfkit_hook)(void);
extern _Atomic(perfkit_hook) _swift_willThrow;
extern _Atomic(perfkit_hook) _swift_willThrowTypedImpl;

// Shared by every thread that measures (Swift Testing runs tests in parallel under `swift test`):
// a depth and the saved hooks under one mutex, so two overlapping measurements cannot save each
// other's cleared hooks and leave them cleared for the rest of the process.
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int depth;
static perfkit_hook savedUntyped;
static perfkit_hook savedTyped;

void perfkit_throw_hooks_suspend(void) {
    pthread_mutex_lock(&lock);
    if (depth++ == 0) {
        savedUntyped = atomic_exchange(&_swift_willThrow, NULL);
        savedTyped = atomic_exchange(&_swift_willThrowTypedImpl, NULL);
    }
    pthread_mutex_unlock(&lock);
}

void perfkit_throw_hooks_resume(void) {
    pthread_mutex_lock(&lock);
    if (depth > 0 && --depth == 0) {
        atomic_store(&_swift_willThrow, savedUntyped);
        atomic_store(&_swift_willThrowTypedImpl, savedTyped);
        savedUntyped = NULL;
        savedTyped = NULL;
    }
    pthread_mutex_unlock(&lock);
}

int perfkit_throw_hooks_installed(void) {
    return atomic_load(&_swift_willThrow) != NULL || atomic_load(&_swift_willThrowTypedImpl) != NULL;
}

int perfkit_throw_hooks_held(void) {
    pthread_mutex_lock(&lock);
    int held = depth > 0 ? (savedUntyped != NULL || savedTyped != NULL) : perfkit_throw_hooks_installed();
    pthread_mutex_unlock(&lock);
    return held;
}
