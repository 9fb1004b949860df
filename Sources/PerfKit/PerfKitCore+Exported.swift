/// Re-exports `PerfKitCore`, PerfKit's measuring core, a module of its own.
///
/// PerfKit's measuring core (probes, results, statistics of one series, subjects) is a module of
/// its own, `PerfKitCore`, so a measured test bundle builds only that; everything in it is part
/// of PerfKit's API.
@_exported import PerfKitCore
