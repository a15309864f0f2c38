import JSONModelKitCore

/// The models a lazy collection has built, by index: each place is set once and read without a
/// lock.
///
/// A place goes from empty (0) to a +1 reference to a model, by compare-and-swap, and never
/// changes again while the owner lives; so a reader loads it (acquiring) and uses the model
/// without a lock, the owner keeping it alive. The places themselves are allocated on the first
/// store, so a collection whose elements are never built costs one word. A lock around an array
/// of models would take two lock and unlock pairs per element built: looking up whether it was
/// built, then storing it.
///
/// PERF: building a lazy collection's elements; see jsonmodel-bench --section bulk, row (b).
///
/// Not copyable: the owner (a collection's shared storage) frees the places, and releases the
/// models, exactly once.
struct BuiltModels: ~Copyable, @unchecked Sendable {
    // @unchecked Sendable: the word and the places are only touched through atomic operations,
    // and the models are immutable after they are stored or lock what they change.
    /// The address of the places, or 0 before the first store.
    private let places = OwnedAtomicWord(0)
    let count: Int

    init(count: Int) {
        self.count = count
    }

    deinit {
        guard let base = base else { return }
        var index = 0
        while index < count {
            let bits = (base + index).load(ordering: .acquiring)
            if bits != 0 { Self.unmanaged(bits).release() }
            index += 1
        }
        freePlain(base)
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

    private var base: UnsafeMutablePointer<AtomicWord>? {
        UnsafeMutablePointer(bitPattern: places.pointer.load(ordering: .acquiring))
    }

    /// Allocates the places and publishes them; another thread's, when it published first.
    private func makePlaces() -> UnsafeMutablePointer<AtomicWord> {
        let made = allocatePlain(AtomicWord.self, capacity: count)
        var index = 0
        while index < count {
            (made + index).initialize(to: AtomicWord(0))
            index += 1
        }
        let (stored, found) = places.pointer.compareExchange(
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
