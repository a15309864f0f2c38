import JSONModelKitCore

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

/// The locked state of one model (``ModelState``), found where the model keeps its word.
///
/// A mutable model uses its state on every read, and keeps the word after its own empty slots.
/// An immutable model almost never makes one (a diagnostic, a relationship), so the word is not
/// in the model or its slots: it is made on first use in ``ImmutableModelStates``. Every
/// immutable model is a word smaller for it, and with the heap's size classes, often 16 bytes.
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
/// Touched by a model's first diagnostic or relationship and later uses of its state. A model
/// that made none looks only at one counter, also in its `deinit`: zero there says that no
/// model whose address picks that counter has a word, so this one has none.
enum ImmutableModelStates {
    private static let words = Locked<[ObjectIdentifier: UnsafeMutablePointer<AtomicWord>]>([:])

    /// How many of the words belong to models whose address picks each counter. Every model's
    /// metadata keeps this address (``ModelMetadata/stateCounters``), so that a model reaches it
    /// with a load, where this global is reached through a call that checks it was made.
    nonisolated(unsafe) static let counters: UnsafeMutablePointer<AtomicWord> = {
        let counters = allocatePlain(AtomicWord.self, capacity: countersCount)
        counters.initialize(repeating: AtomicWord(0), count: countersCount)
        return counters
    }()

    /// The number of counters: a power of two.
    private static var countersCount: Int { 1024 }

    /// The counter that `model`'s address picks (objects are 16-byte aligned).
    @inline(__always)
    private static func counter(of model: JSONModel) -> UnsafeMutablePointer<AtomicWord> {
        model.metadata.stateCounters + Int((UInt(bitPattern: ObjectIdentifier(model)) &>> 4) & UInt(countersCount - 1))
    }

    /// The word of `model`, made now if it has none and `making`.
    static func word(of model: JSONModel, making: Bool) -> UnsafeMutablePointer<AtomicWord>? {
        let counter = counter(of: model)
        if !making && counter.load(ordering: .acquiring) == 0 { return nil }
        return words.withLock { words -> UnsafeMutablePointer<AtomicWord>? in
            if let word = words[ObjectIdentifier(model)] { return word }
            guard making else { return nil }
            let word = allocatePlain(AtomicWord.self, capacity: 1)
            word.initialize(to: AtomicWord(0))
            words[ObjectIdentifier(model)] = word
            counter.wrappingAdd(1, ordering: .releasing)
            return word
        }
    }

    /// Removes the word of `model`, which is going away, and releases its state.
    @inline(__always)
    static func remove(_ model: JSONModel) {
        let counter = counter(of: model)
        guard counter.load(ordering: .acquiring) != 0 else { return }
        guard let word = words.withLock({ $0.removeValue(forKey: ObjectIdentifier(model)) }) else { return }
        counter.wrappingAdd(UInt.max, ordering: .releasing)  // minus one
        LazyLocked<ModelState>(word: word).release()
        freePlain(word)
    }

    /// Whether the model with this identity has a word here, for tests.
    static func hasWord(_ model: ObjectIdentifier) -> Bool { words.withLock { $0[model] != nil } }
}
