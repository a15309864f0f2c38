import JSONModelKitCore
import Synchronization

/// A ``Locked`` value made on first use: one word until then.
///
/// Most models never change, record no diagnostic and take part in no relationship, so their
/// mutable state is never touched; keeping it in the model took 72 bytes and its set-up and
/// tear-down in every model. The first `withLock` makes the value and its lock, once: threads
/// that race publish by compare-and-swap and all use the one that won.
struct LazyLocked<Value: LazilyMade>: ~Copyable, @unchecked Sendable {
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

    private let word = Atomic<UInt>(0)

    /// A value made with `Value.makeValue()` on first use.
    init() {}

    /// `value`, made now.
    init(_ value: sending Value) {
        word.store(UInt(bitPattern: Unmanaged.passRetained(Box(value)).toOpaque()), ordering: .releasing)
    }

    deinit {
        let bits = word.load(ordering: .acquiring)
        if bits != 0 { Unmanaged<Box>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release() }
    }

    /// Whether the value has been made.
    var isMade: Bool { word.load(ordering: .acquiring) != 0 }

    /// Calls `body` with exclusive access to the value, making it first if needed.
    @inline(__always)
    borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        let box = box().takeUnretainedValue()
        return try box.locked.withLock(body)
    }

    /// Calls `body` with exclusive access to the value when it has been made; nil otherwise,
    /// without making it.
    @inline(__always)
    borrowing func withLockIfMade<Result, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> Result? {
        let bits = word.load(ordering: .acquiring)
        guard bits != 0 else { return nil }
        let box = Unmanaged<Box>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue()
        return try box.locked.withLock(body)
    }

    /// The box, made and published on first use; alive as long as `self` (never replaced).
    private borrowing func box() -> Unmanaged<Box> {
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
