#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("PlainAllocation needs the C library: no Glibc, Musl or Darwin module here")
#endif

/// Memory for `capacity` values of `T` (at least one) straight from `malloc`, uninitialized; give
/// it back with ``freePlain(_:)``.
///
/// `UnsafeMutablePointer.allocate` reaches `posix_memalign` on Linux, which does more than
/// `malloc` per allocation: nothing for one large buffer, but a parse of a small
/// document and every model allocate once each. `malloc` aligns for any type this library
/// stores (16 bytes).
///
/// PERF: the allocation each model and small document makes; see jsonmodel-bench --section bulk, row (b).
@inlinable @inline(__always)
package func allocatePlain<T: ~Copyable>(_ type: T.Type, capacity: Int) -> UnsafeMutablePointer<T> {
    precondition(MemoryLayout<T>.alignment <= 16, "malloc does not align \(T.self)")
    guard let memory = malloc(max(capacity, 1) * MemoryLayout<T>.stride) else {
        fatalError("out of memory allocating \(capacity) × \(MemoryLayout<T>.stride) bytes")
    }
    return memory.bindMemory(to: T.self, capacity: max(capacity, 1))
}

/// Memory from ``allocatePlain(_:capacity:)`` resized to `capacity` values of a trivial type
/// (at least one), the first of them kept, with `realloc`: a large block's pages are moved
/// rather than copied where the system can.
@inlinable @inline(__always)
package func reallocatePlain<T: BitwiseCopyable>(_ pointer: UnsafeMutablePointer<T>, capacity: Int) -> UnsafeMutablePointer<T> {
    guard let memory = realloc(UnsafeMutableRawPointer(pointer), max(capacity, 1) * MemoryLayout<T>.stride) else {
        fatalError("out of memory allocating \(capacity) × \(MemoryLayout<T>.stride) bytes")
    }
    return memory.bindMemory(to: T.self, capacity: max(capacity, 1))
}

/// Gives back memory from ``allocatePlain(_:capacity:)``; its values must be deinitialized.
@inlinable @inline(__always)
package func freePlain<T: ~Copyable>(_ pointer: UnsafeMutablePointer<T>) {
    free(UnsafeMutableRawPointer(pointer))
}
