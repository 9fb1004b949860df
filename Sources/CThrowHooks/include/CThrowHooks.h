#ifndef PERFKIT_CTHROWHOOKS_H
#define PERFKIT_CTHROWHOOKS_H
// The Swift runtime's will-throw hooks (`_swift_willThrow`, `_swift_willThrowTypedImpl` in
// libswiftCore), which `swift_willThrow` calls on every throw when set. Swift Testing sets both at
// the start of a run, to capture a backtrace for every error any code throws; a measurement
// suspends them, so a body that throws is measured at what it costs outside a test.

/// Clears both hooks, keeping what they held; nested and concurrent calls are counted, and only
/// the first clears.
void perfkit_throw_hooks_suspend(void);

/// Undoes one perfkit_throw_hooks_suspend(); the last restores the hooks as they were.
void perfkit_throw_hooks_resume(void);

/// Non-zero when either hook is set now.
int perfkit_throw_hooks_installed(void);

/// Non-zero when either hook is set now or kept by a suspension (read under the lock, so a
/// measurement on another thread cannot hide a hook from it).
int perfkit_throw_hooks_held(void);
#endif
