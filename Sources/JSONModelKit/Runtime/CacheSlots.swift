#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("CacheSlots needs the C library: no Glibc, Musl or Darwin module here")
#endif
import JSONModelKitCore

#if !_pointerBitWidth(_64)
#error("JSONModelKit needs a 64-bit platform: a model's cache packs a type's address and an offset into one 64-bit word")
#endif

/// The cache of an immutable model: one slot per property, read without a lock.
///
/// A slot goes from empty to a value once, and then holds either a +1 reference to a cache
/// entry or, for the plain values of a first read (``InlineLayout``), the value itself, in bytes
/// after the slots: no object per value, so nothing to allocate when it is read or to free with
/// the model. The low three bits of a slot say which:
///
/// | bits | slot |
/// |------|------|
/// | `000` | an entry's address |
/// | `001` | a *validated* entry's address (its converter checks cached values), or empty (address 0) |
/// | `010`, `110` | an inline value: its type's metadata address in bits 3–47, its byte offset from the slots in bits 48–63; `110` when the value needs destroying (it holds references) |
/// | `011` | claimed: a thread is writing an inline value, or walking the object (``claimWalk(leader:)``) |
/// | `101` | no value yet, but the place of the property's member is known: its tape index in bits 3–63, or 0 when the key is missing (`MemberIndex.swift`) |
///
/// Bit 0 is set when the fast read (`JSONModel+Reading.swift`) must not use the slot. An inline
/// value is written by the one thread that claimed the empty slot, then published with a
/// releasing store of its bits; a reader that loads those bits (acquiring) reads a complete value,
/// and nothing writes it again until the model is freed. A nested model's inline value is its
/// reference; the model's release frees those through ``releaseEntries(models:)`` or hands them
/// to the release loop (``handEntries(to:models:)``), as it does entries.
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
/// Ownership. The memory has exactly one owner, the model, which frees it once, in its
/// `deinit`, with
/// ``deallocate()``. A `CacheSlots` value is a handle that owns nothing: the model keeps only the
/// address (a ``View``, which the fast read uses) and makes the handle from it and its metadata's
/// property count when it needs one, which saves a model two words. Mutable models cache
/// nothing in slots (their writes empty cache entries, which needs the model's lock): theirs
/// stay empty, so the fast read always takes the general path, and the word after them holds
/// the model's state.
@usableFromInline
struct CacheSlots: @unchecked Sendable {
    // @unchecked Sendable: slots are only touched through atomic operations.
    let base: UnsafeMutablePointer<AtomicWord>
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
        let base: UnsafeMutablePointer<AtomicWord>

        @usableFromInline
        init(base: UnsafeMutablePointer<AtomicWord>) {
            self.base = base
        }

        /// The bits of slot `index`, loaded with acquire ordering: an entry's address, tagged.
        @inlinable @inline(__always)
        func bits(at index: Int) -> UInt {
            CacheSlots.bits(at: index, in: base).bits
        }

        /// The bits of slot `index`, with the slots' address handed back in a register next to
        /// them: a caller that reads an inline value next need not keep the address across the
        /// call, which a loop short of registers kept on the stack, a store and a load on the
        /// way to every value.
        @inlinable @inline(__always)
        func bitsAndBase(at index: Int) -> (bits: UInt, base: UnsafeMutablePointer<AtomicWord>) {
            CacheSlots.bits(at: index, in: base)
        }

        /// The inline value that `bits`, loaded from a slot holding one, describe, when it has type `T`.
        @inlinable @inline(__always)
        func inlineValue<T>(_ bits: UInt, as type: T.Type) -> T? {
            guard bits & CacheSlots.typeMask == UInt(bitPattern: ObjectIdentifier(T.self)) else { return nil }
            return loadInline(bits, as: T.self)
        }

        /// The inline value that `bits` describe, which the caller has checked has type `T`.
        @inlinable @inline(__always)
        func loadInline<T>(_ bits: UInt, as type: T.Type) -> T {
            UnsafeRawPointer(base).load(fromByteOffset: Int(bits &>> 48), as: T.self)
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
    /// A slot whose inline value a thread is writing.
    static var claimed: UInt { 0b011 }
    /// The low bits that tell what a slot holds.
    @usableFromInline
    static var tagMask: UInt { 0b111 }
    /// The tag of an inline value with nothing to destroy.
    @usableFromInline
    static var inlineTag: UInt { 0b010 }
    /// The tag of an inline value that holds references.
    @usableFromInline
    static var inlineDestroyTag: UInt { 0b110 }
    /// The bits of an inline value's type.
    #if _pointerBitWidth(_64)
    @usableFromInline
    static var typeMask: UInt { 0x0000_FFFF_FFFF_FFF8 }
    #else
    // Never used: a 32-bit build stops at the #error at the top of this file.
    @usableFromInline
    static var typeMask: UInt { 0xFFFF_FFF8 }
    #endif
    /// The bits of a slot holding an inline value of type `T`, but for the offset: the type's
    /// and the tag, which says whether the value holds references (as ``InlineLayout`` sets it).
    @inlinable @inline(__always)
    static func inlineBits<T>(of type: T.Type) -> UInt {
        inlineBits(type: ObjectIdentifier(T.self), isTrivial: _isPOD(T.self))
    }

    /// The same from the type's identity and whether its values hold no references, as a
    /// property's layout knows them.
    @inlinable @inline(__always)
    static func inlineBits(type: ObjectIdentifier, isTrivial: Bool) -> UInt {
        UInt(bitPattern: type) | (isTrivial ? inlineTag : inlineDestroyTag)
    }
    /// The tag of a slot with no value yet whose member's place is known.
    static var memberTag: UInt { 0b101 }

    /// A slot with no value yet whose member's value is at tape index `position`, or whose key
    /// is missing (0: the object itself is never a member).
    static func member(_ position: Int) -> UInt { UInt(position) << 3 | memberTag }

    /// Whether `bits` hold a value: an entry or an inline value.
    @inline(__always)
    static func isFilled(_ bits: UInt) -> Bool {
        switch bits & tagMask {
        case 0, inlineTag, inlineDestroyTag: true
        case slowTag: bits != empty
        default: false
        }
    }

    /// Whether `bits` hold no value and no thread is writing one.
    @inline(__always)
    static func isUnfilled(_ bits: UInt) -> Bool {
        bits == empty || bits & tagMask == memberTag
    }

    /// The slots at `base`, made by ``init(count:inlineBytes:)`` for `count` slots.
    init(base: UnsafeMutablePointer<AtomicWord>, count: Int) {
        self.base = base
        self.count = count
    }

    /// New empty slots and `inlineBytes` bytes after them for inline values (``InlineLayout``),
    /// or, with `stateWord`, a word holding 0 after the slots instead (a mutable model's state);
    /// the owner frees them with ``deallocate()``.
    init(count: Int, inlineBytes: Int = 0, stateWord: Bool = false) {
        self.count = count
        let words = count + (stateWord ? 1 : (inlineBytes + 7) / 8)
        base = allocatePlain(AtomicWord.self, capacity: words)
        var index = 0
        while index < count {
            (base + index).initialize(to: AtomicWord(Self.empty))
            index += 1
        }
        if stateWord { (base + count).initialize(to: AtomicWord(0)) }
    }

    /// Frees the slots, once, when the owner goes away: after ``releaseEntries(models:)`` or
    /// ``handEntries(to:models:)`` emptied them.
    func deallocate() {
        // An `AtomicWord` is a plain integer: the memory is freed without deinitializing it.
        freePlain(base)
    }

    /// Releases the entries and empties their slots.
    ///
    /// Called by the model's `deinit`, where the release of nested models is counted
    /// (IterativeRelease.swift), before it frees the slots. Only the owner's `deinit` may call
    /// it: an emptied untagged slot breaks the promise that such an entry lives as long as the
    /// model.
    ///
    /// - Parameter models: The slots whose inline values are models' references, bit by bit
    ///   (``ModelMetadata/inlineModels``): released directly, not through their type's metadata.
    func releaseEntries(models: UInt64 = 0) {
        var index = 0
        while index < count {
            let bits = (base + index).load(ordering: .acquiring)
            if Self.isFilled(bits) {
                (base + index).store(Self.empty, ordering: .relaxed)
                if isInlineModel(bits, at: index, models: models) {
                    inlineModel(bits)?.release()
                } else {
                    releaseValue(bits)
                }
            }
            index += 1
        }
    }

    /// Whether slot `index`, filled with `bits`, holds an inline model's reference: it is one of
    /// `models` and holds an inline value.
    @inline(__always)
    private func isInlineModel(_ bits: UInt, at index: Int, models: UInt64) -> Bool {
        bits & Self.tagMask == Self.inlineDestroyTag && index < UInt64.bitWidth && models & (1 << UInt64(index)) != 0
    }

    /// The reference of an inline model's slot filled with `bits`; nil for an optional that is nil.
    @inline(__always)
    private func inlineModel(_ bits: UInt) -> Unmanaged<AnyObject>? {
        let place = UnsafeRawPointer(base) + Int(bits &>> 48)
        return place.load(as: UnsafeRawPointer?.self).map { Unmanaged.fromOpaque($0) }
    }

    /// Drops what a filled slot holds: the reference to its entry, or its inline value.
    @inline(__always)
    private func releaseValue(_ bits: UInt) {
        switch bits & Self.tagMask {
        case Self.inlineTag: break
        case Self.inlineDestroyTag: destroyInline(bits)
        default: Self.unmanaged(bits).release()
        }
    }

    /// Destroys an inline value that holds references: the common types directly, others
    /// through their type's metadata (a generic call costing about 200 instructions).
    private func destroyInline(_ bits: UInt) {
        let place = UnsafeMutableRawPointer(base) + Int(bits &>> 48)
        switch bits & Self.typeMask {
        case UInt(bitPattern: ObjectIdentifier(String.self)):
            place.assumingMemoryBound(to: String.self).deinitialize(count: 1)
            return
        case UInt(bitPattern: ObjectIdentifier(String?.self)):
            place.assumingMemoryBound(to: String?.self).deinitialize(count: 1)
            return
        case UInt(bitPattern: ObjectIdentifier([String].self)):
            place.assumingMemoryBound(to: [String].self).deinitialize(count: 1)
            return
        default: break
        }
        let type = unsafeBitCast(bits & Self.typeMask, to: Any.Type.self)
        func destroy<T>(_: T.Type) { place.assumingMemoryBound(to: T.self).deinitialize(count: 1) }
        _openExistential(type, do: destroy)
    }

    /// Empties the slots like ``releaseEntries(models:)`` but hands each entry's reference, and
    /// each inline model's, to `held` instead of releasing it, for the loop that frees deep
    /// chains of models; only the owner's `deinit` may call it.
    func handEntries(to held: inout [AnyObject], models: UInt64) {
        var index = 0
        while index < count {
            let bits = (base + index).load(ordering: .acquiring)
            if Self.isFilled(bits) {
                (base + index).store(Self.empty, ordering: .relaxed)
                if isInlineModel(bits, at: index, models: models) {
                    if let model = inlineModel(bits) { held.append(model.takeRetainedValue()) }
                } else if bits & Self.inlineTag != 0 {
                    // Other inline values hold no models (``InlineLayout``): freed here, at no depth.
                    releaseValue(bits)
                } else {
                    held.append(Self.unmanaged(bits).takeRetainedValue())
                }
            }
            index += 1
        }
    }

    @inline(__always)
    private static func unmanaged(_ bits: UInt) -> Unmanaged<CacheEntry> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits & ~slowTag).unsafelyUnwrapped)
    }

    /// The bits of slot `index`, loaded with acquire ordering: an entry's address, tagged;
    /// and `base` again (see ``View/bitsAndBase(at:)``).
    ///
    /// Out of line and marked as releasing nothing, so that the optimizer may keep a
    /// caller's objects unretained across it: it must assume an inlined atomic load could
    /// release anything, and would retain and release the model around every cached read
    /// (PERF: row (c) of `jsonmodel-bench --section model`).
    @usableFromInline @inline(never) @_effects(releasenone)
    static func bits(
        at index: Int, in base: UnsafeMutablePointer<AtomicWord>
    ) -> (bits: UInt, base: UnsafeMutablePointer<AtomicWord>) {
        ((base + index).load(ordering: .acquiring), base)
    }

    /// What slot `index` holds.
    enum Content {
        /// Nothing, not even the member's place.
        case empty
        /// No value yet; the member's tape index, 0 when its key is missing (the object itself
        /// is never a member).
        case unread(member: Int)
        /// A value a thread is writing.
        case busy
        /// An entry, with a reference of the caller's own.
        case entry(CacheEntry)
        /// An inline value; the slot's bits, for ``View/inlineValue(_:as:)`` or ``inlineValue(_:in:)``.
        case inline(UInt)
    }

    /// What slot `index` holds.
    ///
    /// `lock` is the owning model's: a validated entry is loaded and retained under it.
    @inline(__always)
    func content(at index: Int, lock: ModelStateAccess) -> Content {
        precondition(index >= 0 && index < count)
        let bits = (base + index).load(ordering: .acquiring)
        switch bits & Self.tagMask {
        // Never swapped out, so alive as long as the model.
        case 0: return .entry(Self.unmanaged(bits).takeUnretainedValue())
        case Self.inlineTag, Self.inlineDestroyTag: return .inline(bits)
        case Self.slowTag where bits != Self.empty:
            return validatedEntry(at: index, lock: lock).map(Content.entry) ?? .empty
        case Self.slowTag: return .empty
        case Self.memberTag:
            return .unread(member: Int(bits &>> 3))
        default: return .busy
        }
    }

    /// The inline value of `bits` as a new entry of `entryType`, for the readers that need an entry.
    func inlineEntry(_ bits: UInt, type: any PropertyValue.Type) -> CacheEntry {
        type.loadEntry(from: UnsafeRawPointer(base) + Int(bits &>> 48))
    }

    /// The value cached in slot `index` as an entry (an inline value copied into a new one, of
    /// `type`), or nil when there is none.
    func cachedEntry(at index: Int, lock: ModelStateAccess, type: any PropertyValue.Type) -> CacheEntry? {
        switch content(at: index, lock: lock) {
        case .empty, .unread, .busy: nil
        case .entry(let entry): entry
        case .inline(let bits): inlineEntry(bits, type: type)
        }
    }

    /// Claims slot `index` if it still holds `unfilled`, lets `write` initialize a value of
    /// `layout` in its place, and publishes it.
    ///
    /// - Parameter claimed: Whether this thread holds the slot's claim already: the leader's,
    ///   whose claim of the walk (``claimWalk(leader:)``) is also the claim of its value. The
    ///   slot is then published either way, with the value or as `unfilled`.
    /// - Returns: Whether the slot now holds the value written; false when it held something
    ///   else (a value, or one being written, another thread's) or `write` wrote nothing (the
    ///   slot then holds `unfilled` again).
    func fill(
        at index: Int, unfilled: UInt, claimed: Bool = false, layout: InlineLayout, write: (UnsafeMutableRawPointer) -> Bool
    ) -> Bool {
        precondition(index >= 0 && index < count)
        if !claimed {
            guard (base + index).compareExchange(
                expected: unfilled, desired: Self.claimed, successOrdering: .acquiring, failureOrdering: .relaxed
            ).exchanged else { return false }
        }
        if write(UnsafeMutableRawPointer(base) + layout.offset) {
            (base + index).store(layout.bits, ordering: .releasing)
            return true
        }
        (base + index).store(unfilled, ordering: .releasing)
        return false
    }

    /// ``content(at:lock:)`` for a validated entry: loaded again, and retained, under the lock;
    /// nil when the slot holds something else by then.
    private func validatedEntry(at index: Int, lock: ModelStateAccess) -> CacheEntry? {
        let taken: UInt? = lock.withLock { _ in
            let bits = (base + index).load(ordering: .acquiring)
            guard bits & Self.tagMask == Self.slowTag && bits != Self.empty else { return nil }
            _ = Self.unmanaged(bits).retain()
            return bits
        }
        return taken.map { Self.unmanaged($0).takeRetainedValue() }
    }

    /// Whether slot `index` holds an inline value, once no thread is writing one there.
    ///
    /// A writer holds the claim only while it makes and stores one value, so this waits briefly.
    func awaitInlineValue(at index: Int) -> Bool {
        awaitUnclaimed(at: index) & Self.tagMask & ~0b100 == Self.inlineTag
    }

    /// The bits of slot `index` once no thread holds its claim: the claim of a value being
    /// written, or of the walk in the leader's slot, each held briefly.
    ///
    /// After a short spin the waiter sleeps, longer each time up to a millisecond, so that it
    /// leaves the core to the claimant: a waiter that only yielded could keep a claimant of
    /// lower priority off the core where the scheduler favours the waiter (Darwin's quality of
    /// service classes). The claimant's side stays a plain store, with no wake-up to send: the
    /// wait is rare (two threads making the same model's first read at once), its publication
    /// is on every first read.
    @discardableResult
    func awaitUnclaimed(at index: Int) -> UInt {
        precondition(index >= 0 && index < count)
        var spins = 0
        var nanoseconds = 2_000
        while true {
            let bits = (base + index).load(ordering: .acquiring)
            if bits != Self.claimed { return bits }
            if spins < Self.spinsBeforeSleeping {
                spins += 1
                continue
            }
            var interval = timespec(tv_sec: 0, tv_nsec: nanoseconds)
            nanosleep(&interval, nil)
            nanoseconds = min(nanoseconds * 2, 1_000_000)
        }
    }

    /// How many times a waiter looks at a claimed slot before it sleeps: about as long as a
    /// claimant takes to convert a plain value.
    static var spinsBeforeSleeping: Int { 100 }

    /// Whether slot `index` holds no value.
    func isEmpty(at index: Int) -> Bool {
        precondition(index >= 0 && index < count)
        return Self.isUnfilled((base + index).load(ordering: .acquiring))
    }

    /// Claims the walk over the model's object that finds the members of the properties read
    /// from one key (`MemberIndex.swift`), or waits for another thread's walk to end.
    ///
    /// The walk is claimed and published in the slot of one of those properties, the `leader`:
    /// empty before the walk, claimed during it, and never empty again after it. Every writer to
    /// the slots of those properties passes here first while its slot is empty, so the thread
    /// that claims the walk is the only writer of all of them until it publishes: it records
    /// their members with plain stores (``recordMembers(_:at:leader:)``), not a compare-and-swap
    /// each, and may fill the leader's slot itself (``fill(at:unfilled:claimed:layout:write:)``).
    ///
    /// - Returns: True when this thread claimed the walk: it must walk, then publish the leader's
    ///   slot with ``publishMember(_:at:)`` or a fill. False when the walk is done.
    func claimWalk(leader: Int) -> Bool {
        precondition(leader >= 0 && leader < count)
        var bits = (base + leader).load(ordering: .acquiring)
        if bits == Self.empty {
            let (exchanged, found) = (base + leader).compareExchange(
                expected: Self.empty, desired: Self.claimed, successOrdering: .acquiring, failureOrdering: .acquiring)
            if exchanged { return true }
            bits = found
        }
        // Claimed by a walk, or by the fill of the leader's value: either ends briefly, and the
        // slot is never empty again.
        if bits == Self.claimed { awaitUnclaimed(at: leader) }
        return false
    }

    /// Records where the members of `ordinals` other than `leader` are: `positions[ordinal]`, a
    /// tape index or 0 for a missing key. Only the thread that claimed the walk
    /// (``claimWalk(leader:)``) may call it, before it publishes the leader's slot; their slots
    /// are all empty until then.
    func recordMembers(_ ordinals: [Int], at positions: UnsafeMutableBufferPointer<Int>, leader: Int) {
        for ordinal in ordinals where ordinal != leader {
            precondition(ordinal >= 0 && ordinal < count)
            assert((base + ordinal).load(ordering: .relaxed) == Self.empty, "a slot was written during the walk")
            // Published by the releasing store of the leader's slot, which readers of an empty
            // slot wait for; a reader that loads this one first needs nothing else from the walk.
            (base + ordinal).store(Self.member(positions[ordinal]), ordering: .relaxed)
        }
    }

    /// Ends the walk claimed in slot `leader`: the slot now says where its member is.
    func publishMember(_ position: Int, at leader: Int) {
        precondition(leader >= 0 && leader < count)
        (base + leader).store(Self.member(position), ordering: .releasing)
    }

    /// Stores `entry` in a slot that holds no value.
    ///
    /// - Returns: The entry to use and whether it is `entry`, stored. When another thread stored
    ///   first: its entry if that one is untagged; a validated one may only be loaded under the
    ///   model's lock, and an inline value is no entry, so then `entry` itself, not stored (a
    ///   conversion just made is as good).
    func store(_ entry: CacheEntry, at index: Int) -> (entry: CacheEntry, stored: Bool) {
        precondition(index >= 0 && index < count)
        var bits = UInt(bitPattern: Unmanaged.passRetained(entry).toOpaque())
        if entry.validator != nil { bits |= Self.slowTag }
        var existing = (base + index).load(ordering: .acquiring)
        while Self.isUnfilled(existing) {
            let (stored, found) = (base + index).compareExchange(
                expected: existing, desired: bits, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
            if stored { return (entry, true) }
            existing = found
        }
        Self.unmanaged(bits).release()
        // A validated entry, a claimed slot or an inline value: this entry (as good).
        if existing & Self.tagMask != 0 { return (entry, false) }
        return (Self.unmanaged(existing).takeUnretainedValue(), false)
    }

    /// Empties slot `index` if it still holds the validated `entry`, and drops the slot's
    /// reference to it: the entry is freed once the readers that took it let go.
    ///
    /// The slot is emptied under `lock`, the owning model's, under which readers take their
    /// references (``entry(at:lock:)``); after that no reader can load it. The caller holds a
    /// reference to `entry`, so its address cannot belong to another entry meanwhile.
    func retire(_ entry: CacheEntry, at index: Int, lock: ModelStateAccess) {
        precondition(index >= 0 && index < count)
        let bits = UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque()) | Self.slowTag
        let emptied: Bool = lock.withLock { _ in
            (base + index).compareExchange(
                expected: bits, desired: Self.empty, successOrdering: .acquiringAndReleasing, failureOrdering: .relaxed
            ).exchanged
        }
        if emptied { Self.unmanaged(bits).release() }
    }

    /// How many slots hold a value.
    var filledCount: Int {
        (0..<count).reduce(0) { $0 + (Self.isFilled((base + $1).load(ordering: .acquiring)) ? 1 : 0) }
    }
}
