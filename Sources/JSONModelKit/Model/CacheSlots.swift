import Synchronization

/// The cache of an immutable model: one slot per property, read without a lock.
///
/// A slot goes from empty to an entry once, by compare-and-swap, and each slot holds a +1
/// reference to its entry. Readers load a slot with acquire ordering and get the entry without
/// taking a lock. An entry found stale by its converter's validation is swapped out and kept
/// in `retired` until the model is freed, because another reader may still be using it.
/// Mutable models do not use this: their writes empty slots, which needs the model's lock.
final class CacheSlots: @unchecked Sendable {
    // @unchecked Sendable: slots are only touched through atomic operations; `retired` is
    // behind its lock.
    private let slots: UnsafeMutablePointer<Atomic<UInt>>
    private let count: Int
    private let retired = Locked<[CacheEntry]>([])

    init(count: Int) {
        self.count = count
        slots = .allocate(capacity: count)
        for index in 0..<count { (slots + index).initialize(to: Atomic(0)) }
    }

    deinit {
        for index in 0..<count {
            let bits = slots[index].load(ordering: .acquiring)
            if bits != 0 { Self.unmanaged(bits).release() }
        }
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    @inline(__always)
    private static func unmanaged(_ bits: UInt) -> Unmanaged<CacheEntry> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped)
    }

    /// The entry in slot `index`, or nil when the property was not read yet.
    @inline(__always)
    func entry(at index: Int) -> CacheEntry? {
        precondition(index >= 0 && index < count)
        let bits = slots[index].load(ordering: .acquiring)
        return bits == 0 ? nil : Self.unmanaged(bits).takeUnretainedValue()
    }

    /// Stores `entry` in an empty slot and returns it, or returns the entry another thread
    /// stored first.
    func store(_ entry: CacheEntry, at index: Int) -> CacheEntry {
        precondition(index >= 0 && index < count)
        let bits = UInt(bitPattern: Unmanaged.passRetained(entry).toOpaque())
        let (stored, existing) = slots[index].compareExchange(
            expected: 0, desired: bits, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
        if stored { return entry }
        Self.unmanaged(bits).release()
        return Self.unmanaged(existing).takeUnretainedValue()
    }

    /// Empties the slot if it still holds `entry`, keeping `entry` alive until the model is freed.
    func retire(_ entry: CacheEntry, at index: Int) {
        let bits = UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque())
        let (emptied, _) = slots[index].compareExchange(
            expected: bits, desired: 0, successOrdering: .acquiringAndReleasing, failureOrdering: .relaxed)
        // The slot's +1 moves into `retired`.
        if emptied { retired.withLock { $0.append(Self.unmanaged(bits).takeRetainedValue()) } }
    }

    /// How many slots hold an entry.
    var filledCount: Int {
        (0..<count).reduce(0) { $0 + (slots[$1].load(ordering: .acquiring) == 0 ? 0 : 1) }
    }
}
