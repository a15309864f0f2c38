import JSONModelKitCore

#if !_pointerBitWidth(_64)
#error("JSONModelKit needs a 64-bit platform: a model's cache packs a type's address and an offset into one 64-bit word")
#endif

// The slots of a model's cache: their layout and tags, making and freeing them, and releasing
// what they hold. Reading and filling one slot, by many threads at once, is in
// CacheSlots+Access.swift.

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
/// (``retire(_:at:lock:leaving:)``), and its memory is then freed as soon as nobody uses it, so
/// it is only ever loaded under the owning model's lock, which `retire` also holds when it takes
/// the entry out of the slot: a reader either takes its own reference before (and the entry lives
/// until the reader lets go) or sees the slot without a value or holding a newer entry. Nothing dereferences
/// a validated entry loaded without that lock (``store(_:at:)`` does not return one). Rejected
/// entries are therefore not kept, and a model read a million times through a converter that
/// rejects every cached value stays the same size.
///
/// Ownership. The memory has exactly one owner: the model, which frees it once, in its
/// `deinit`, with ``deallocate()``; or, for an immutable model read from a large document, the
/// document's arena (``init(count:inlineBytes:in:)``), which frees it with the document, after
/// every model over that document is gone. A `CacheSlots` value is a handle that owns nothing:
/// the model keeps only the address (a ``View``, which the fast read uses) and makes the handle
/// from it and its metadata's property count when it needs one, which saves a model two words.
/// Mutable models cache nothing in slots (their writes empty cache entries, which needs the
/// model's lock): theirs stay empty, so the fast read always takes the general path, and the
/// word after them holds the model's state.
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
            loadSlotBits(at: index, in: base).bits
        }

        /// The bits of slot `index`, with the slots' address handed back in a register next to
        /// them: a caller that reads an inline value next need not keep the address across the
        /// call, which a loop short of registers would keep on the stack, a store and a load on
        /// the way to every value.
        ///
        /// PERF: the cached read; see jsonmodel-bench --section model, row (c).
        @inlinable @inline(__always)
        func bitsAndBase(at index: Int) -> (bits: UInt, base: UnsafeMutablePointer<AtomicWord>) {
            loadSlotBits(at: index, in: base)
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
        let words = count + (stateWord ? 1 : (inlineBytes + 7) / 8)
        self.init(emptyAt: allocatePlain(AtomicWord.self, capacity: words), count: count)
        if stateWord { (base + count).initialize(to: AtomicWord(0)) }
    }

    /// New empty slots and `inlineBytes` bytes after them, in `arena`, which frees them with its
    /// document: the owner must hold that document, and not call ``deallocate()``. Nil when the
    /// arena has no room.
    init?(count: Int, inlineBytes: Int, in arena: borrowing DocumentArena) {
        guard let base = arena.allocate(words: max(count + (inlineBytes + 7) / 8, 1)) else { return nil }
        self.init(emptyAt: base, count: count)
    }

    /// Empties `count` slots at `base`.
    private init(emptyAt base: UnsafeMutablePointer<AtomicWord>, count: Int) {
        self.base = base
        self.count = count
        var index = 0
        while index < count {
            (base + index).initialize(to: AtomicWord(Self.empty))
            index += 1
        }
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
    /// through their type's metadata, which takes a generic call where the common types take none
    /// (for an array of numbers, about 90 instructions where a release is about 10).
    ///
    /// PERF: freeing models with inline strings and arrays of integers; see jsonmodel-bench
    /// --section bulk, row (b), and --section documents, citm_catalog.json.
    private func destroyInline(_ bits: UInt) {
        let place = UnsafeMutableRawPointer(base) + Int(bits &>> 48)
        func destroy<T>(_: T.Type) { place.assumingMemoryBound(to: T.self).deinitialize(count: 1) }
        switch bits & Self.typeMask {
        case UInt(bitPattern: ObjectIdentifier(String.self)): destroy(String.self)
        case UInt(bitPattern: ObjectIdentifier(String?.self)): destroy(String?.self)
        case UInt(bitPattern: ObjectIdentifier([String].self)): destroy([String].self)
        case UInt(bitPattern: ObjectIdentifier([Int].self)): destroy([Int].self)
        // Few: each generic type's identity costs a call to find its metadata, paid by every
        // value the list does not name.
        default: _openExistential(unsafeBitCast(bits & Self.typeMask, to: Any.Type.self), do: destroy)
        }
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
    static func unmanaged(_ bits: UInt) -> Unmanaged<CacheEntry> {
        Unmanaged.fromOpaque(UnsafeRawPointer(bitPattern: bits & ~slowTag).unsafelyUnwrapped)
    }
}

/// The bits of slot `index` of the slots at `base`, loaded with acquire ordering: an entry's
/// address, tagged; and `base` again (see ``CacheSlots/View/bitsAndBase(at:)``).
///
/// Out of line and marked as releasing nothing, so that the optimizer may keep a caller's
/// objects unretained across it: it must assume an inlined atomic load could release anything,
/// and would retain and release the model around every cached read. A function of the module,
/// not a static method: the optimizer dropped a static method's unused type argument in a copy
/// of its own, and every caller in another module paid a jump through the original on the way
/// (PERF: row (c) of `jsonmodel-bench --section model`).
@usableFromInline @inline(never) @_effects(releasenone)
func loadSlotBits(
    at index: Int, in base: UnsafeMutablePointer<AtomicWord>
) -> (bits: UInt, base: UnsafeMutablePointer<AtomicWord>) {
    ((base + index).load(ordering: .acquiring), base)
}
