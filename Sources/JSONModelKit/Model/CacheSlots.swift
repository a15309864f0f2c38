import Synchronization

/// The cache of an immutable model: one slot per property, read without a lock.
///
/// A slot goes from empty to an entry once, by compare-and-swap, and holds a +1 reference to
/// it. Readers load a slot with acquire ordering and use the entry without taking a lock or a
/// reference: the model keeps it alive. Bit 0 of a slot is set when the fast read
/// (`JSONModel+Reading.swift`) must not use it: an empty slot holds just that bit, and an entry
/// whose converter validates cached values is stored with it. Only those entries are ever swapped
/// out again (``retire(_:at:)``), so an untagged entry lives as long as the model and the fast
/// read needs one test.
///
/// The model owns the memory: it calls ``destroy()`` from its `deinit`. Mutable models do not
/// use slots: their writes empty cache entries, which needs the model's lock.
@usableFromInline
struct CacheSlots: @unchecked Sendable {
    // @unchecked Sendable: slots are only touched through atomic operations.
    @usableFromInline
    let base: UnsafeMutablePointer<Atomic<UInt>>
    let count: Int

    /// The bit of a slot that sends a read down the general path: set in an empty slot and
    /// in a slot whose entry is validated on every read.
    @usableFromInline
    static var slowTag: UInt { 1 }

    /// An empty slot.
    static var empty: UInt { slowTag }

    init(count: Int) {
        self.count = count
        base = .allocate(capacity: count)
        var index = 0
        while index < count {
            (base + index).initialize(to: Atomic(Self.empty))
            index += 1
        }
    }

    /// Releases the entries and frees the slots; called once, by the model's `deinit`.
    func destroy() {
        var index = 0
        while index < count {
            let bits = base[index].load(ordering: .acquiring)
            if bits != Self.empty { Self.unmanaged(bits).release() }
            index += 1
        }
        // `Atomic<UInt>` has no deinitializer, so the memory is freed without deinitializing
        // it (the generic `deinitialize(count:)` for a ~Copyable element costs a runtime call
        // per slot).
        base.deallocate()
    }

    /// Frees the slots like ``destroy()`` but hands each entry's reference to `held` instead of
    /// releasing it; called once, by the model's `deinit`.
    func destroy(handingEntriesTo held: inout [AnyObject]) {
        var index = 0
        while index < count {
            let bits = base[index].load(ordering: .acquiring)
            if bits != Self.empty { held.append(Self.unmanaged(bits).takeRetainedValue()) }
            index += 1
        }
        base.deallocate()
    }

    @inline(__always)
    private static func unmanaged(_ bits: UInt) -> Unmanaged<CacheEntry> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits & ~slowTag).unsafelyUnwrapped)
    }

    /// The bits of slot `index`, loaded with acquire ordering: an entry's address, tagged.
    ///
    /// Out of line and marked as releasing nothing, so that the optimizer may keep a
    /// caller's objects unretained across it (it must assume an inlined atomic load could
    /// release anything).
    @usableFromInline @inline(never) @_effects(releasenone)
    static func bits(at index: Int, in base: UnsafeMutablePointer<Atomic<UInt>>) -> UInt {
        base[index].load(ordering: .acquiring)
    }

    /// The entry in slot `index`, or nil when the property was not read yet.
    @inline(__always)
    func entry(at index: Int) -> CacheEntry? {
        precondition(index >= 0 && index < count)
        let bits = base[index].load(ordering: .acquiring)
        return bits == Self.empty ? nil : Self.unmanaged(bits).takeUnretainedValue()
    }

    /// Stores `entry` in an empty slot and returns it, or returns the entry another thread
    /// stored first.
    func store(_ entry: CacheEntry, at index: Int) -> CacheEntry {
        precondition(index >= 0 && index < count)
        var bits = UInt(bitPattern: Unmanaged.passRetained(entry).toOpaque())
        if entry.validator != nil { bits |= Self.slowTag }
        let (stored, existing) = base[index].compareExchange(
            expected: Self.empty, desired: bits, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
        if stored { return entry }
        Self.unmanaged(bits).release()
        return Self.unmanaged(existing).takeUnretainedValue()
    }

    /// Empties the slot if it still holds `entry` and returns the slot's reference to it, which
    /// the caller keeps until the model is freed (another reader may still be using it).
    func retire(_ entry: CacheEntry, at index: Int) -> CacheEntry? {
        let bits = UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque()) | Self.slowTag
        let (emptied, _) = base[index].compareExchange(
            expected: bits, desired: Self.empty, successOrdering: .acquiringAndReleasing, failureOrdering: .relaxed)
        return emptied ? Self.unmanaged(bits).takeRetainedValue() : nil
    }

    /// How many slots hold an entry.
    var filledCount: Int {
        (0..<count).reduce(0) { $0 + (base[$1].load(ordering: .acquiring) == Self.empty ? 0 : 1) }
    }
}
