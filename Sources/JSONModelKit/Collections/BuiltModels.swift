import JSONModelKitCore

/// The models a lazy collection has built, by index: each place is set once and read without a
/// lock.
///
/// A place goes from empty (0) to a +1 reference to a model, by compare-and-swap, and never
/// changes again while the owner lives; so a reader loads it (acquiring) and uses the model
/// without a lock, the owner keeping it alive. A lock around an array of models would take two
/// lock and unlock pairs per element built: looking up whether it was built, then storing it.
///
/// The places of a small collection (up to ``eagerLimit``) are allocated with it, in one
/// allocation; those of a larger one on the first store, so that a large collection whose
/// elements are never built costs one word, the one that will hold their address. An empty
/// collection allocates nothing.
///
/// PERF: building a lazy collection's elements; see jsonmodel-bench --section bulk, row (b).
/// Small collections: payloads of many small arrays of models, jsonmodel-bench --section
/// documents, citm_catalog.json.
///
/// Not copyable: the owner (a collection's shared storage) frees the places, and releases the
/// models, exactly once.
struct BuiltModels: ~Copyable, @unchecked Sendable {
    // @unchecked Sendable: the words and the places are only touched through atomic operations,
    // and the models are immutable after they are stored or lock what they change.
    /// The places of a small collection; for a larger one, the word holding their address, 0
    /// before the first store. Nil when there are none.
    private let storage: UnsafeMutablePointer<AtomicWord>?
    let count: Int

    /// The most places allocated with the collection.
    static var eagerLimit: Int { 16 }

    /// - Parameter extraBytes: For a small collection, bytes to allocate after the places, for
    /// the owner (``extra``); ignored for a larger one.
    init(count: Int, extraBytes: Int = 0) {
        self.count = count
        guard count > 0 else {
            storage = nil
            return
        }
        let extraWords = (extraBytes + MemoryLayout<AtomicWord>.stride - 1) / MemoryLayout<AtomicWord>.stride
        let words = count <= Self.eagerLimit ? count + extraWords : 1
        let storage = allocatePlain(AtomicWord.self, capacity: words)
        var index = 0
        while index < words {
            (storage + index).initialize(to: AtomicWord(0))
            index += 1
        }
        self.storage = storage
    }

    /// The bytes a small collection asked for after its places (``init(count:extraBytes:)``).
    var extra: UnsafeMutableRawPointer {
        precondition(count > 0 && count <= Self.eagerLimit, "only a small collection has bytes after its places")
        return UnsafeMutableRawPointer(storage.unsafelyUnwrapped + count)
    }

    deinit {
        guard let storage else { return }
        if let base {
            var index = 0
            while index < count {
                let bits = (base + index).load(ordering: .acquiring)
                if bits != 0 { Self.unmanaged(bits).release() }
                index += 1
            }
            if base != storage { freePlain(base) }
        }
        freePlain(storage)
    }

    /// The model at `index`, when one was stored.
    @inline(__always)
    func model(at index: Int) -> JSONModel? {
        precondition(index >= 0 && index < count)
        guard let base else { return nil }
        let bits = (base + index).load(ordering: .acquiring)
        // Never emptied while the owner lives, and the caller holds the owner.
        return bits == 0 ? nil : Self.unmanaged(bits).takeUnretainedValue()
    }

    /// Stores `model` at `index` unless another is there already; returns the one stored.
    func store(_ model: consuming JSONModel, at index: Int) -> JSONModel {
        precondition(index >= 0 && index < count)
        let base = base ?? makePlaces()
        let bits = UInt(bitPattern: Unmanaged.passRetained(copy model).toOpaque())
        let (stored, found) = (base + index).compareExchange(
            expected: 0, desired: bits, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
        if stored { return model }
        Self.unmanaged(bits).release()
        return Self.unmanaged(found).takeUnretainedValue()
    }

    /// The places, or nil while a large collection has not made them.
    @inline(__always)
    private var base: UnsafeMutablePointer<AtomicWord>? {
        if count <= Self.eagerLimit { return storage }
        return UnsafeMutablePointer(bitPattern: storage.unsafelyUnwrapped.load(ordering: .acquiring))
    }

    /// Allocates a large collection's places and publishes them; another thread's, when it
    /// published first.
    private func makePlaces() -> UnsafeMutablePointer<AtomicWord> {
        let made = allocatePlain(AtomicWord.self, capacity: count)
        var index = 0
        while index < count {
            (made + index).initialize(to: AtomicWord(0))
            index += 1
        }
        let (stored, found) = storage.unsafelyUnwrapped.compareExchange(
            expected: 0, desired: UInt(bitPattern: made), successOrdering: .acquiringAndReleasing,
            failureOrdering: .acquiring)
        if stored { return made }
        freePlain(made)
        return UnsafeMutablePointer(bitPattern: found).unsafelyUnwrapped
    }

    @inline(__always)
    private static func unmanaged(_ bits: UInt) -> Unmanaged<JSONModel> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
    }
}
