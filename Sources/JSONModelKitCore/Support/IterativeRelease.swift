#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("IterativeRelease needs the C library: no Glibc, Musl or Darwin module here")
#endif

/// Releases nested structures from a loop instead of from inside each other's `deinit`.
///
/// When the last reference to a model (or a JSON container) goes away, Swift frees what it
/// holds right there, inside its `deinit`: a chain of models, each caching the next, is freed
/// one stack frame set per link, and a few thousand links overflow a thread's stack. A model's
/// `deinit` frees in place for the first ``inlineDepth`` levels (the common case, and the cheap
/// one), then hands what it holds to the thread's list; a JSON container's storage hands its
/// nested containers over at once, through ``release(_:)`` or ``drain(_:)``. On a thread that is not
/// releasing yet, that drops the references one by one from a loop; a `deinit` run by one of
/// those drops finds the loop running and only appends to its list. So the stack stays a few
/// frames deep however long the chain, and everything is freed before the outermost call returns.
///
/// Each thread has its own list (in its ``ThreadState``), so nothing is shared and nothing is locked.
@usableFromInline
package enum IterativeRelease {
    /// How many models deep a model frees its cached values in place, inside its `deinit`, before
    /// deeper ones go to the loop. Each level takes a few stack frames (under 1 KiB in a debug
    /// build), so this is a small part of a 512 KiB stack; and most models are freed at the first
    /// few levels, where freeing in place costs nothing beyond the release itself.
    @inlinable package static var inlineDepth: Int { 64 }

    /// Releases `objects` and whatever they hold without recursing through them.
    ///
    /// - Parameter objects: References the caller gives up (typically the last ones); emptied,
    ///   so that the caller's array holds none of them when it goes away (an array passed by
    ///   value would keep them until the caller's frame ends, after the loop has finished).
    package static func release(_ objects: inout [AnyObject]) {
        let state = ThreadState.current
        state.releasing.append(contentsOf: objects)
        objects.removeAll()
        drain(state)
    }

    /// Drops the references on this thread's list, unless a loop further up is already doing it.
    ///
    /// For a `deinit` that puts references on `state.releasing` itself, one at a time.
    package static func drain(_ state: ThreadState) {
        if state.isReleasing { return }
        state.isReleasing = true
        while true {
            // Dropping an object may run deinits that append to the list.
            guard let object = state.releasing.popLast() else { break }
            _ = consume object
        }
        state.isReleasing = false
    }
}

/// What the library keeps per thread, in a `pthread` key: nothing is shared, nothing locked.
@usableFromInline
package final class ThreadState {
    // Exclusivity is not checked at run time: only this thread reaches its state, and freeing
    // a parsed document's values would pay a check on every access. The attribute
    // holds inside this module only: the models' module, which counts its `deinit`s here, reads
    // and changes the stored values through the inlined accessors of `releasing` and
    // `releaseDepth`, which do not check.
    // PERF: freeing a document's values; see callgrind of jsonmodel-bench --section bulk
    // (`--toggle-collect='*BulkWorkload*'`).

    @exclusivity(unchecked) @usableFromInline var storedReleasing: [AnyObject] = []
    @exclusivity(unchecked) @usableFromInline var storedReleaseDepth = 0

    /// What ``IterativeRelease`` has left to release on this thread.
    @inlinable package var releasing: [AnyObject] {
        _read { yield storedReleasing }
        _modify { yield &storedReleasing }
    }
    /// Whether ``IterativeRelease`` is releasing on this thread.
    @exclusivity(unchecked) var isReleasing = false
    /// How many model `deinit`s are freeing cached values in place on this thread, one inside the other.
    @inlinable package var releaseDepth: Int {
        _read { yield storedReleaseDepth }
        _modify { yield &storedReleaseDepth }
    }
    /// How many arrays and objects deep `JSONValue`'s `Codable` conformance is on this thread.
    @exclusivity(unchecked) var codingDepth = 0

    @usableFromInline init() {}

    /// This thread's state, created on first use and freed when the thread exits.
    @inlinable package static var current: ThreadState {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<ThreadState>.fromOpaque(pointer).takeUnretainedValue()
        }
        let state = ThreadState()
        pthread_setspecific(key, Unmanaged.passRetained(state).toOpaque())
        return state
    }

    @usableFromInline static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
            Unmanaged<ThreadState>.fromOpaque(pointer).release()
            #else
            if let pointer { Unmanaged<ThreadState>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()
}
