#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Locked needs a lock: pthreads (Glibc, Musl) or Darwin's os_unfair_lock")
#endif

/// A value behind a lock: `pthread_mutex_t` on Linux, `os_unfair_lock` on Apple platforms.
///
/// The standard library's `Mutex` needs the releases of 2024 on Apple platforms (macOS 15,
/// iOS 18); these locks are there on every release the package supports. Both are locks the
/// thread sanitizer knows, so it sees the order they impose. The value and its lock share one
/// allocation, which does not move: locks may not.
///
/// ```swift
/// let counts = Locked<[String: Int]>([:])
/// counts.withLock { $0["a", default: 0] += 1 }
/// ```
@usableFromInline
package struct Locked<Value>: @unchecked Sendable {
    // @unchecked Sendable: the value is reached only through `withLock`, under the lock.
    @usableFromInline let storage: LockedStorage<Value>

    @inlinable
    package init(_ value: consuming sending Value) {
        storage = LockedStorage.make(value)
    }

    /// Calls `body` with exclusive access to the value.
    // Inlinable, so that the models' module specializes it rather than calling a generic
    // function that looks up the value's metadata on every call.
    @inlinable @inline(__always)
    package func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        // The storage lives as long as `self`, which the caller holds for the call.
        let (value, lock) = storage.pointers
        LockedStorage<Value>.lock(lock)
        defer { LockedStorage<Value>.unlock(lock) }
        return try body(&value.pointee)
    }
}

#if canImport(Darwin)
@usableFromInline package typealias LockPrimitive = os_unfair_lock
#else
@usableFromInline package typealias LockPrimitive = pthread_mutex_t
#endif

/// The allocation of a ``Locked``: its value, then its lock.
@usableFromInline
package final class LockedStorage<Value>: ManagedBuffer<Value, LockPrimitive> {
    /// A new storage holding `value`, its lock initialized.
    @inlinable
    static func make(_ value: Value) -> LockedStorage<Value> {
        let buffer = create(minimumCapacity: 1) { _ in value }
        let storage = unsafeDowncast(buffer, to: LockedStorage<Value>.self)
        storage.withUnsafeMutablePointerToElements { initialize($0) }
        return storage
    }

    /// Initializes the lock at `lock`, unlocked.
    @inlinable
    static func initialize(_ lock: UnsafeMutablePointer<LockPrimitive>) {
        #if canImport(Darwin)
        lock.initialize(to: os_unfair_lock())
        #else
        lock.initialize(to: pthread_mutex_t())
        precondition(pthread_mutex_init(lock, nil) == 0, "pthread_mutex_init failed")
        #endif
    }

    /// The value's and the lock's addresses, fixed for the storage's life.
    @inlinable
    var pointers: (value: UnsafeMutablePointer<Value>, lock: UnsafeMutablePointer<LockPrimitive>) {
        withUnsafeMutablePointers { ($0, $1) }
    }

    @inlinable @inline(__always)
    static func lock(_ lock: UnsafeMutablePointer<LockPrimitive>) {
        #if canImport(Darwin)
        os_unfair_lock_lock(lock)
        #else
        let result = pthread_mutex_lock(lock)
        precondition(result == 0, "pthread_mutex_lock failed")
        #endif
    }

    @inlinable @inline(__always)
    static func unlock(_ lock: UnsafeMutablePointer<LockPrimitive>) {
        #if canImport(Darwin)
        os_unfair_lock_unlock(lock)
        #else
        let result = pthread_mutex_unlock(lock)
        precondition(result == 0, "pthread_mutex_unlock failed")
        #endif
    }

    deinit {
        withUnsafeMutablePointers { value, lock in
            #if !canImport(Darwin)
            pthread_mutex_destroy(lock)
            #endif
            lock.deinitialize(count: 1)
            _ = value  // the header is destroyed by ManagedBuffer
        }
    }
}
