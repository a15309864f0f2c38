#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("ThreadStack needs the C library: no Glibc, Musl or Darwin module here")
#endif

/// How much of the current thread's stack is left, for recursion whose frames the library does
/// not size: a `Decodable` type's own `init(from:)` runs at every level of a Codable value.
///
/// The lowest address of each thread's stack is asked of the system once per thread
/// (`pthread_getattr_np` on Linux, `pthread_get_stackaddr_np` and `pthread_get_stacksize_np` on
/// Darwin; on Linux the main thread's answer reads `/proc/self/maps`) and kept in a
/// thread-specific slot, so each later question costs a slot read and a subtraction.
enum ThreadStack {
    /// The slot holding each thread's lowest stack address.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()

    /// The bytes between the caller's frame and the end of the current thread's stack; nil
    /// where the system does not say where the stack ends.
    static func remainingBytes() -> Int? {
        var marker: UInt8 = 0
        let here = withUnsafeMutablePointer(to: &marker) { Int(bitPattern: $0) }
        guard let lowest = lowestAddress() else { return nil }
        return here - lowest
    }

    /// The lowest address of the current thread's stack, asked of the system on the thread's
    /// first call.
    private static func lowestAddress() -> Int? {
        if let known = pthread_getspecific(key) { return Int(bitPattern: known) }
        guard let lowest = systemLowestAddress(), lowest != 0 else { return nil }
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: lowest))
        return lowest
    }

    #if !canImport(Darwin)
    /// `pthread_getattr_np`, which glibc and musl declare only for `_GNU_SOURCE`, so that the C
    /// library's Swift module leaves it out: found by name, called as the C function it is.
    private static let threadAttributes: (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32)? = {
        guard let symbol = dlsym(nil, "pthread_getattr_np") else { return nil }
        return unsafeBitCast(
            symbol, to: (@convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32).self)
    }()
    #endif

    private static func systemLowestAddress() -> Int? {
        #if canImport(Darwin)
        let thread = pthread_self()
        let top = Int(bitPattern: pthread_get_stackaddr_np(thread))
        return top - pthread_get_stacksize_np(thread)
        #else
        guard let getAttributes = threadAttributes else { return nil }
        var attributes = pthread_attr_t()
        guard getAttributes(pthread_self(), &attributes) == 0 else { return nil }
        defer { pthread_attr_destroy(&attributes) }
        var address: UnsafeMutableRawPointer?
        var size = 0
        guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else { return nil }
        return Int(bitPattern: address)
        #endif
    }
}
