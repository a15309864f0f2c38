import JSONModelKitCore
import Synchronization

/// A ``Locked`` value made on first use: one word until then.
///
/// Most models never change, record no diagnostic and take part in no relationship, so their
/// mutable state is never touched; keeping it in the model took 72 bytes and its set-up and
/// tear-down in every model. The first `withLock` makes the value and its lock, once: threads
/// that race publish by compare-and-swap and all use the one that won.
///
/// A handle to a word that its owner keeps where it likes (``ModelStateAccess``), and empties
/// once, with ``release()``, when it goes away: the handle owns nothing.
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
    let word: UnsafeMutablePointer<Atomic<UInt>>

    init(word: UnsafeMutablePointer<Atomic<UInt>>) {
        self.word = word
    }

    /// Makes `value` now, in a word that holds none yet.
    func make(_ value: sending Value) {
        let made = Unmanaged.passRetained(Box(value))
        let (stored, _) = word[0].compareExchange(
            expected: 0, desired: UInt(bitPattern: made.toOpaque()), ordering: .acquiringAndReleasing)
        precondition(stored, "the value was made already")
    }

    /// Releases the value, if it was made, and empties the word: once, by the word's owner, when
    /// nobody uses the value any more.
    func release() {
        let bits = word[0].exchange(0, ordering: .acquiringAndReleasing)
        if bits != 0 { Unmanaged<Box>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).release() }
    }

    /// Whether the value has been made.
    var isMade: Bool { word[0].load(ordering: .acquiring) != 0 }

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
        let bits = word[0].load(ordering: .acquiring)
        guard bits != 0 else { return nil }
        let box = Unmanaged<Box>.fromOpaque(UnsafeRawPointer(bitPattern: bits)!).takeUnretainedValue()
        return try box.locked.withLock(body)
    }

    /// The box, made and published on first use; alive until ``release()``.
    private func box() -> Unmanaged<Box> {
        let bits = word[0].load(ordering: .acquiring)
        if bits != 0 { return Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits)!) }
        let made = Unmanaged.passRetained(Box())
        let (stored, existing) = word[0].compareExchange(
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

/// The locked state of one model (``ModelState``), found where the model keeps its word.
///
/// A mutable model uses its state on every read, and keeps the word after its own empty slots.
/// An immutable model almost never makes one (a diagnostic, a relationship), so the word is
/// not in the model: it is made on first use in ``ImmutableModelStates``, and the model's flag
/// ``JSONModel/madeState`` says so. Every model is 8 bytes smaller for it, and with the heap's
/// size classes, 16.
struct ModelStateAccess {
    /// The model, which is alive while its state is used: this is made from `self` and used
    /// at once.
    unowned(unsafe) let model: JSONModel

    private func handle(making: Bool) -> LazyLocked<ModelState>? {
        model.stateWord(making: making).map { LazyLocked(word: $0) }
    }

    /// Whether the state has been made.
    var isMade: Bool { handle(making: false)?.isMade ?? false }

    /// Calls `body` with exclusive access to the state, making it first if needed.
    @inline(__always)
    func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending ModelState) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try handle(making: true).unsafelyUnwrapped.withLock(body)
    }

    /// Calls `body` with exclusive access to the state when it has been made; nil otherwise,
    /// without making it.
    @inline(__always)
    func withLockIfMade<Result, E: Error>(
        _ body: (inout sending ModelState) throws(E) -> sending Result
    ) throws(E) -> Result? {
        guard let handle = handle(making: false) else { return nil }
        return try handle.withLockIfMade(body)
    }
}

/// The words of the immutable models that made their locked state, by model.
///
/// Touched only by a model's first diagnostic or relationship, later uses of its state, and its
/// `deinit`; a model that made none never looks here.
enum ImmutableModelStates {
    private static let words = Locked<[ObjectIdentifier: UnsafeMutablePointer<Atomic<UInt>>]>([:])

    /// The word of `model`, made now if it has none, which sets its flag.
    static func word(of model: JSONModel, making: Bool) -> UnsafeMutablePointer<Atomic<UInt>>? {
        words.withLock { words -> UnsafeMutablePointer<Atomic<UInt>>? in
            if let word = words[ObjectIdentifier(model)] { return word }
            guard making else { return nil }
            let word = allocatePlain(Atomic<UInt>.self, capacity: 1)
            word.initialize(to: Atomic(0))
            words[ObjectIdentifier(model)] = word
            model.madeState.store(true, ordering: .releasing)
            return word
        }
    }

    /// Removes the word of `model`, which is going away, and releases its state.
    static func remove(_ model: JSONModel) {
        guard let word = words.withLock({ $0.removeValue(forKey: ObjectIdentifier(model)) }) else { return }
        LazyLocked<ModelState>(word: word).release()
        freePlain(word)
    }

    /// Whether the model with this identity has a word here, for tests.
    static func hasWord(_ model: ObjectIdentifier) -> Bool { words.withLock { $0[model] != nil } }
}
