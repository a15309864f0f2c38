import JSONModelKitCore

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
        let counters = model.metadataReference._withUnsafeGuaranteedRef { $0.stateCounters }
        return counters + Int((UInt(bitPattern: ObjectIdentifier(model)) &>> 4) & UInt(countersCount - 1))
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
