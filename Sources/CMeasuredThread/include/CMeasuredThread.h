#ifndef PERFKIT_CMEASUREDTHREAD_H
#define PERFKIT_CMEASUREDTHREAD_H
// What PerfKit's measured thread (MeasuredThread.swift) needs from C: a doorbell to sleep on, and the marks a counting
// run's shim reads around each job.

/// A doorbell one thread sleeps on and any thread rings, whose wait takes the same instructions whether it was rung
/// before or while it slept. With `reports_idle`, the sleeper tells the counting shim when it sleeps with nothing
/// queued.
void *perfkit_doorbell_make(int reports_idle);

/// Sleeps until the doorbell is rung, and takes one ring.
void perfkit_doorbell_wait(void *bell);

/// Rings the doorbell once.
void perfkit_doorbell_ring(void *bell);

/// Marks the start of a job of a counted async body on this thread (for the counting shim).
void perfkit_job_begin(void);

/// Marks its end.
void perfkit_job_end(void);
#endif
