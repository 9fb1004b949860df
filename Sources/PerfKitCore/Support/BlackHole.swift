/// Keeps a value alive and opaque to the optimizer, so the work that produced it is not deleted.
/// - Parameter value: Any value.
///
/// Neither inlined nor optimized, so the compiler must assume the value escapes: allocations
/// that feed it are not promoted to the stack and computations that produce it are kept.
@inline(never) @_optimize(none)
public func blackHole<T>(_ value: T) {}
