/// Locks shared by many objects, each object taking the one its address picks.
///
/// For state that most objects never touch, so that none of them pays for a lock of its own:
/// a ``Locked`` is an allocation, which every document (a streamed element's included) would
/// make and free for indexes that only lookups into large containers build. Objects that share
/// a lock only wait for each other while one of them holds it.
///
/// ```swift
/// StripedLocks.withLock(for: document) { document.guardedState += 1 }
/// ```
///
/// Inlinable, so that the caller's closures and result type are specialized into it: called
/// unspecialized from the models' module, each call cost hundreds of instructions of generic
/// copies (PERF: `[Item]` reads of citm_catalog.json, `jsonmodel-bench --section documents`).
@usableFromInline
package enum StripedLocks {
    /// How many locks there are: a power of two.
    @usableFromInline
    static var count: Int { 64 }

    /// The locks, made once and never freed; only ever locked and unlocked.
    @usableFromInline
    nonisolated(unsafe) static let locks: UnsafeMutablePointer<LockPrimitive> = {
        let locks = UnsafeMutablePointer<LockPrimitive>.allocate(capacity: count)
        for index in 0..<count { LockedStorage<Void>.initialize(locks + index) }
        return locks
    }()

    /// Calls `body` holding the lock that `object`'s address picks.
    @inlinable @inline(__always)
    package static func withLock<Result, E: Error>(for object: AnyObject, _ body: () throws(E) -> Result) throws(E) -> Result {
        // Objects are 16-byte aligned: the bits above those pick the lock.
        try withLock(stripe: Int(truncatingIfNeeded: UInt(bitPattern: ObjectIdentifier(object)) &>> 4), body)
    }

    /// Calls `body` holding lock number `stripe` (taken modulo ``count``): for a table whose
    /// places share the locks by their index rather than by an object's address.
    @inlinable @inline(__always)
    package static func withLock<Result, E: Error>(stripe: Int, _ body: () throws(E) -> Result) throws(E) -> Result {
        let lock = locks + (stripe & (count - 1))
        LockedStorage<Void>.lock(lock)
        defer { LockedStorage<Void>.unlock(lock) }
        return try body()
    }

    /// The value `read` finds under `object`'s lock; when there is none, `make()`, kept with
    /// `write` unless another thread kept one meanwhile, whose value is then returned.
    ///
    /// `make` runs without the lock: it may take a while, and may run code that takes the same
    /// lock (the locks are not recursive).
    ///
    /// Always inlined, as the locks above are: left to itself, the optimizer calls them from
    /// generic code (the Swift array of a lazy array of models), where each call looks up the
    /// metadata of its result type, on every first read of such an array as `[Item]`.
    @inlinable @inline(__always)
    package static func keepOnce<Value>(
        for object: AnyObject, read: () -> Value?, write: (Value) -> Void, make: () -> Value
    ) -> Value {
        if let kept = withLock(for: object, read) { return kept }
        let made = make()
        return withLock(for: object) {
            if let kept = read() { return kept }
            write(made)
            return made
        }
    }
}
