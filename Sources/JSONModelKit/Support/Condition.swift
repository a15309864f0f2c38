#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Condition needs the C library: no Glibc, Musl or Darwin module here")
#endif

/// A pthread mutex with a condition variable, for a thread that waits until another says so.
///
/// The standard library's `Mutex` has no condition to wait on; Foundation's `NSCondition` would
/// make the library link all of Foundation. The thread sanitizer understands pthread's
/// primitives, so it sees every wait and signal.
final class Condition: @unchecked Sendable {
    // @unchecked Sendable: the mutex and condition are made for use from several threads.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }

    func unlock() { pthread_mutex_unlock(mutex) }

    /// Gives the lock up, sleeps until ``broadcast()`` or until `seconds` have passed since
    /// `start`, then takes the lock again. False when the time ran out.
    ///
    /// The caller holds the lock, and checks what it waits for again on return: a wait can also
    /// end early, with nothing changed.
    func wait(seconds: Double, since start: timespec) -> Bool {
        var deadline = start
        let whole = seconds.rounded(.down)
        deadline.tv_sec += Int(whole)
        deadline.tv_nsec += Int((seconds - whole) * 1e9)
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        return pthread_cond_timedwait(condition, mutex, &deadline) == 0
    }

    /// Wakes every thread waiting in ``wait(seconds:since:)``.
    func broadcast() { pthread_cond_broadcast(condition) }

    /// The time now on the clock ``wait(seconds:since:)`` measures with (`CLOCK_REALTIME`).
    static func now() -> timespec {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return now
    }
}
