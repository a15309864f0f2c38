import Synchronization

/// The cache of an immutable model: one slot per property, read without a lock.
///
/// A slot goes from empty to an entry once, by compare-and-swap, and holds a +1 reference to
/// it. Bit 0 of a slot is set when the fast read (`JSONModel+Reading.swift`) must not use it: an
/// empty slot holds just that bit, and an entry whose converter validates cached values (a
/// *validated* entry) is stored with it.
///
/// Memory safety. An untagged entry is never swapped out: it lives as long as the model, so
/// readers load the slot and use the entry without a lock or a reference of their own (the model
/// keeps it alive). A validated entry is swapped out when its converter rejects it
/// (``retire(_:at:lock:)``), and its memory is then freed as soon as nobody uses it, so it is
/// only ever loaded under the owning model's lock, which `retire` also holds when it empties the
/// slot: a reader either takes its own reference before the slot is emptied (and the entry lives
/// until the reader lets go) or sees the slot empty or holding a newer entry. Nothing dereferences
/// a validated entry loaded without that lock (``store(_:at:)`` does not return one). Rejected
/// entries are therefore not kept, and a model read a million times through a converter that
/// rejects every cached value stays the same size.
///
/// Ownership. The type is not copyable, so the memory has exactly one owner (the model, or the
/// metadata for its ``ModelMetadata/emptySlots``) and is freed exactly once, by `deinit`. The
/// fast read needs only the address of the slots, and takes it as a ``View``, which the owner
/// hands out and which is valid only while the owner lives. Mutable models do not use slots:
/// their writes empty cache entries, which needs the model's lock.
@usableFromInline
struct CacheSlots: ~Copyable, @unchecked Sendable {
    // @unchecked Sendable: slots are only touched through atomic operations.
    let base: UnsafeMutablePointer<Atomic<UInt>>
    let count: Int

    /// The address of an owner's slots, for the fast read, which loads one slot and nothing else.
    ///
    /// Copyable, so a model keeps one next to its other fields and a read costs one load. It does
    /// not own the slots: it is valid only while the ``CacheSlots`` it came from lives, which for
    /// a model's own slots and its metadata's empty ones is as long as the model.
    @usableFromInline
    struct View: @unchecked Sendable {
        // @unchecked Sendable: slots are only touched through atomic operations.
        @usableFromInline
        let base: UnsafeMutablePointer<Atomic<UInt>>

        @usableFromInline
        init(base: UnsafeMutablePointer<Atomic<UInt>>) {
            self.base = base
        }

        /// The bits of slot `index`, loaded with acquire ordering: an entry's address, tagged.
        @inlinable @inline(__always)
        func bits(at index: Int) -> UInt {
            CacheSlots.bits(at: index, in: base)
        }
    }

    /// The slots' address for the fast read; valid only while `self` lives.
    var view: View { View(base: base) }

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

    /// Releases the entries still held and frees the slots, once: the owner is going away, so
    /// nothing reads them any more.
    deinit {
        releaseEntries()
        // `Atomic<UInt>` has no deinitializer, so the memory is freed without deinitializing
        // it (the generic `deinitialize(count:)` for a ~Copyable element costs a runtime call
        // per slot).
        base.deallocate()
    }

    /// Releases the entries and empties their slots.
    ///
    /// Called by the model's `deinit` where the release of nested models is counted
    /// (IterativeRelease.swift), which is before the model's fields, these slots among them,
    /// are destroyed; the slots' own `deinit` then finds them empty. Only the owner's `deinit`
    /// may call it: an emptied untagged slot breaks the promise that such an entry lives as
    /// long as the model.
    func releaseEntries() {
        var index = 0
        while index < count {
            let bits = base[index].load(ordering: .acquiring)
            if bits != Self.empty {
                base[index].store(Self.empty, ordering: .relaxed)
                Self.unmanaged(bits).release()
            }
            index += 1
        }
    }

    /// Empties the slots like ``releaseEntries()`` but hands each entry's reference to `held`
    /// instead of releasing it, for the loop that frees deep chains of models; only the owner's
    /// `deinit` may call it.
    func handEntries(to held: inout [AnyObject]) {
        var index = 0
        while index < count {
            let bits = base[index].load(ordering: .acquiring)
            if bits != Self.empty {
                base[index].store(Self.empty, ordering: .relaxed)
                held.append(Self.unmanaged(bits).takeRetainedValue())
            }
            index += 1
        }
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

    /// The entry in slot `index`, with a reference of the caller's own, or nil when the slot is empty.
    ///
    /// `lock` is the owning model's: a validated entry is loaded and retained under it.
    @inline(__always)
    func entry(at index: Int, lock: borrowing Locked<ModelState>) -> CacheEntry? {
        precondition(index >= 0 && index < count)
        let bits = base[index].load(ordering: .acquiring)
        if bits == Self.empty { return nil }
        // Never swapped out, so alive as long as the model.
        if bits & Self.slowTag == 0 { return Self.unmanaged(bits).takeUnretainedValue() }
        return validatedEntry(at: index, lock: lock)
    }

    /// ``entry(at:lock:)`` for a validated entry: loaded again, and retained, under the lock.
    private func validatedEntry(at index: Int, lock: borrowing Locked<ModelState>) -> CacheEntry? {
        let taken: UInt = lock.withLock { _ in
            let bits = base[index].load(ordering: .acquiring)
            if bits != Self.empty { _ = Self.unmanaged(bits).retain() }
            return bits
        }
        return taken == Self.empty ? nil : Self.unmanaged(taken).takeRetainedValue()
    }

    /// Whether slot `index` holds no entry.
    func isEmpty(at index: Int) -> Bool {
        precondition(index >= 0 && index < count)
        return base[index].load(ordering: .acquiring) == Self.empty
    }

    /// Stores `entry` in an empty slot.
    ///
    /// - Returns: The entry to use and whether it is `entry`, stored. When another thread stored
    ///   first: its entry if that one is untagged; a validated one may only be loaded under the
    ///   model's lock, so then `entry` itself, not stored (a conversion just made is as good).
    func store(_ entry: CacheEntry, at index: Int) -> (entry: CacheEntry, stored: Bool) {
        precondition(index >= 0 && index < count)
        var bits = UInt(bitPattern: Unmanaged.passRetained(entry).toOpaque())
        if entry.validator != nil { bits |= Self.slowTag }
        let (stored, existing) = base[index].compareExchange(
            expected: Self.empty, desired: bits, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
        if stored { return (entry, true) }
        Self.unmanaged(bits).release()
        if existing & Self.slowTag != 0 { return (entry, false) }
        return (Self.unmanaged(existing).takeUnretainedValue(), false)
    }

    /// Empties slot `index` if it still holds the validated `entry`, and drops the slot's
    /// reference to it: the entry is freed once the readers that took it let go.
    ///
    /// The slot is emptied under `lock`, the owning model's, under which readers take their
    /// references (``entry(at:lock:)``); after that no reader can load it. The caller holds a
    /// reference to `entry`, so its address cannot belong to another entry meanwhile.
    func retire(_ entry: CacheEntry, at index: Int, lock: borrowing Locked<ModelState>) {
        precondition(index >= 0 && index < count)
        let bits = UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque()) | Self.slowTag
        let emptied: Bool = lock.withLock { _ in
            base[index].compareExchange(
                expected: bits, desired: Self.empty, successOrdering: .acquiringAndReleasing, failureOrdering: .relaxed
            ).exchanged
        }
        if emptied { Self.unmanaged(bits).release() }
    }

    /// How many slots hold an entry.
    var filledCount: Int {
        (0..<count).reduce(0) { $0 + (base[$1].load(ordering: .acquiring) == Self.empty ? 0 : 1) }
    }
}
