import JSONModelKitCore

/// A ``Locked`` value made on first use: one word until then.
///
/// Most models never change, record no diagnostic and take part in no relationship, so their
/// mutable state is never touched; kept in the model, it would take every model several words
/// and its set-up and tear-down. The first `withLock` makes the value and its lock, once: threads
/// that race publish by compare-and-swap and all use the one that won.
///
/// A handle to a word that its owner keeps where it likes (``ModelStateAccess``), and empties
/// once, with ``release()``, when it goes away: the handle owns nothing.
///
/// PERF: the size and making of models that never change; see jsonmodel-bench --section bulk,
/// rows (b) and (c).
struct LazyLocked<Value: LazilyMade>: @unchecked Sendable {
    // @unchecked Sendable: the word is only touched atomically, and the box it points to is a
    // `Locked`, reached only through its lock.
    private final class Box: @unchecked Sendable {
        let locked: Locked<Value>

        init() {
            locked = Locked(Value.makeValue())
        }

        init(_ value: sending Value) {
            locked = Locked(value)
        }
    }

    /// 0 until the value is made, then a +1 reference to its box.
    let word: UnsafeMutablePointer<AtomicWord>

    init(word: UnsafeMutablePointer<AtomicWord>) {
        self.word = word
    }

    /// Makes `value` now, in a word that holds none yet.
    func make(_ value: sending Value) {
        let made = Unmanaged.passRetained(Box(value))
        let (stored, _) = word.compareExchange(
            expected: 0, desired: UInt(bitPattern: made.toOpaque()), ordering: .acquiringAndReleasing)
        precondition(stored, "the value was made already")
    }

    /// Releases the value, if it was made, and empties the word: once, by the word's owner, when
    /// nobody uses the value any more.
    func release() {
        // Most words were never filled: a load spares them the exchange.
        guard word.load(ordering: .acquiring) != 0 else { return }
        let bits = word.exchange(0, ordering: .acquiringAndReleasing)
        if bits != 0 { Unmanaged<Box>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release() }
    }

    /// Whether the value has been made.
    var isMade: Bool { word.load(ordering: .acquiring) != 0 }

    /// Calls `body` with exclusive access to the value, making it first if needed.
    @inline(__always)
    func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        let box = box().takeUnretainedValue()
        return try box.locked.withLock(body)
    }

    /// Calls `body` with exclusive access to the value when it has been made; nil otherwise,
    /// without making it.
    @inline(__always)
    func withLockIfMade<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> Result? {
        let bits = word.load(ordering: .acquiring)
        guard bits != 0 else { return nil }
        let box = Unmanaged<Box>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue()
        return try box.locked.withLock(body)
    }

    /// The box, made and published on first use; alive until ``release()``.
    private func box() -> Unmanaged<Box> {
        let bits = word.load(ordering: .acquiring)
        if bits != 0 { return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits)!) }
        let made = Unmanaged.passRetained(Box())
        let (stored, existing) = word.compareExchange(
            expected: 0, desired: UInt(bitPattern: made.toOpaque()), ordering: .acquiringAndReleasing)
        if stored { return made }
        made.release()
        return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: existing)!)
    }
}

/// A value ``LazyLocked`` can make on first use.
protocol LazilyMade {
    /// A new value, shared with nothing.
    static func makeValue() -> sending Self
}
