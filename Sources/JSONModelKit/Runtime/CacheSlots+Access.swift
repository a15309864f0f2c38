#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("CacheSlots+Access needs the C library: no Glibc, Musl or Darwin module here")
#endif
import JSONModelKitCore

// Reading and filling one slot, by many threads at once: what a slot holds, filling it with an
// inline value or an entry, waiting out another thread's claim, the walk that records where
// members are, and retiring a validated entry.

extension CacheSlots {
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
        type.cacheEntryType.loading(from: UnsafeRawPointer(base) + Int(bits &>> 48))
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
    /// A slot another thread has claimed is waited out: the claimant may give it up without a
    /// value (an inline read of a nested model whose member is no object), and an entry stored
    /// then is the one every reader gets, where returning `entry` unstored would hand this
    /// reader an instance the model does not keep.
    ///
    /// - Returns: The entry to use and whether it is `entry`, stored. When another thread stored
    ///   first: its entry if that one is untagged; a validated one may only be loaded under the
    ///   model's lock, and an inline value is no entry, so then `entry` itself, not stored (a
    ///   conversion just made is as good; for a nested model, the caller waits for the inline one).
    func store(_ entry: CacheEntry, at index: Int) -> (entry: CacheEntry, stored: Bool) {
        precondition(index >= 0 && index < count)
        var bits = UInt(bitPattern: Unmanaged.passRetained(entry).toOpaque())
        if entry.validator != nil { bits |= Self.slowTag }
        var existing = (base + index).load(ordering: .acquiring)
        while true {
            if existing == Self.claimed {
                existing = awaitUnclaimed(at: index)
                continue
            }
            guard Self.isUnfilled(existing) else { break }
            let (stored, found) = (base + index).compareExchange(
                expected: existing, desired: bits, successOrdering: .acquiringAndReleasing, failureOrdering: .acquiring)
            if stored { return (entry, true) }
            existing = found
        }
        Self.unmanaged(bits).release()
        // A validated entry or an inline value: this entry (as good).
        if existing & Self.tagMask != 0 { return (entry, false) }
        return (Self.unmanaged(existing).takeUnretainedValue(), false)
    }

    /// Puts `leaving` in slot `index` if it still holds the validated `entry`, and drops the
    /// slot's reference to it: the entry is freed once the readers that took it let go.
    ///
    /// The slot is changed under `lock`, the owning model's, under which readers take their
    /// references (``entry(at:lock:)``); after that no reader can load it. The caller holds a
    /// reference to `entry`, so its address cannot belong to another entry meanwhile.
    ///
    /// - Parameter leaving: What the slot holds then: ``empty``, or the member's place
    ///   (``member(_:)``), which the slot of the walk's leader must hold rather than nothing
    ///   (``claimWalk(leader:)``).
    func retire(_ entry: CacheEntry, at index: Int, lock: ModelStateAccess, leaving: UInt) {
        precondition(index >= 0 && index < count)
        precondition(Self.isUnfilled(leaving))
        let bits = UInt(bitPattern: Unmanaged.passUnretained(entry).toOpaque()) | Self.slowTag
        let emptied: Bool = lock.withLock { _ in
            (base + index).compareExchange(
                expected: bits, desired: leaving, successOrdering: .acquiringAndReleasing, failureOrdering: .relaxed
            ).exchanged
        }
        if emptied { Self.unmanaged(bits).release() }
    }

    /// How many slots hold a value.
    var filledCount: Int {
        (0..<count).reduce(0) { $0 + (Self.isFilled((base + $1).load(ordering: .acquiring)) ? 1 : 0) }
    }
}
