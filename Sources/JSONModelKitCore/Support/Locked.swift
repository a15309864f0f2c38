#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A value behind the standard library's `Mutex`, visible to the thread sanitizer.
///
/// `Synchronization.Mutex` takes its lock inside the Swift runtime, which the thread
/// sanitizer does not instrument on Linux, so it reports races between accesses that the lock
/// in fact orders (a two-thread program with one `Mutex` shows it). When the sanitizer's
/// runtime is in the process, `Locked` tells it about each lock's acquire and release; when it
/// is not, the cost is one predictable branch.
///
/// ```swift
/// let counts = Locked<[String: Int]>([:])
/// counts.withLock { $0["a", default: 0] += 1 }
/// ```
@usableFromInline
package struct Locked<Value: ~Copyable>: ~Copyable {
    @usableFromInline let mutex: Mutex<Value>

    @inlinable
    package init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }

    /// Calls `body` with exclusive access to the value.
    // Inlinable, so that the models' module specializes it: called across the module boundary,
    // it ran unspecialized and looked up the metadata of `Mutex<Value>` on every call (about 6%
    // of the instructions of reading every property of a large array, measured with callgrind).
    @inlinable @inline(__always)
    package borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        guard let hooks = SanitizerHooks.thread else { return try mutex.withLock(body) }
        // The lock's own storage (address-only, so a borrow is its real place) names it.
        let address = withUnsafePointer(to: self) { UnsafeMutableRawPointer(mutating: $0) }
        return try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            hooks.acquire(address)
            defer { hooks.release(address) }
            return try body(&value)
        }
    }
}

extension Locked: @unchecked Sendable where Value: ~Copyable {}
// @unchecked Sendable: the value is reached only through `withLock`, under the Mutex,
// exactly as `Mutex` itself is Sendable.

/// The thread sanitizer's annotation functions, when its runtime is loaded.
@usableFromInline
struct SanitizerHooks: Sendable {
    @usableFromInline typealias Annotation = @convention(c) (UnsafeMutableRawPointer?) -> Void
    @usableFromInline let acquire: Annotation
    @usableFromInline let release: Annotation

    /// Looked up once; nil in every build without `-sanitize=thread`.
    @usableFromInline static let thread: SanitizerHooks? = {
        #if canImport(Darwin)
        let everywhere = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #else
        let everywhere: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
        #endif
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        guard let acquire = dlsym(everywhere, "__tsan_acquire"), let release = dlsym(everywhere, "__tsan_release") else {
            return nil
        }
        return SanitizerHooks(
            acquire: unsafeBitCast(acquire, to: Annotation.self), release: unsafeBitCast(release, to: Annotation.self))
        #else
        return nil
        #endif
    }()
}
