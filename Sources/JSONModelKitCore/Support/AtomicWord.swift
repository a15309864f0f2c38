import JSONModelKitAtomics

/// One machine word that threads read and write only atomically, through a pointer to it.
///
/// The standard library's `Atomic` needs the releases of 2024 on Apple platforms (macOS 15,
/// iOS 18); this word works on every release the package supports, with the same operations
/// and orderings, compiled inline from the C target `JSONModelKitAtomics`. It has no address
/// of its own until it is in memory that does not move: allocate it (``allocatePlain(_:capacity:)``,
/// ``OwnedAtomicWord``) and reach it through the pointer.
///
/// ```swift
/// let word = allocatePlain(AtomicWord.self, capacity: 1)
/// word.initialize(to: AtomicWord(0))
/// _ = word.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing)
/// word.load(ordering: .acquiring)   // 1
/// ```
@frozen @usableFromInline
package struct AtomicWord {
    @usableFromInline var bits: UInt

    @inlinable
    package init(_ bits: UInt) { self.bits = bits }
}

/// How an atomic operation orders the memory accesses around it, as C11 defines them.
@frozen @usableFromInline
package enum AtomicOrdering {
    case relaxed, acquiring, releasing, acquiringAndReleasing

    /// The ordering as the C builtins take it.
    @inlinable @inline(__always)
    var c: Int32 {
        switch self {
        case .relaxed: Int32(jmk_relaxed)
        case .acquiring: Int32(jmk_acquire)
        case .releasing: Int32(jmk_release)
        case .acquiringAndReleasing: Int32(jmk_acquire_release)
        }
    }
}

extension UnsafeMutablePointer where Pointee == AtomicWord {
    /// The word's bits as the C functions take them: an `AtomicWord` is laid out as its one `UInt`.
    @inlinable @inline(__always)
    var word: UnsafeMutablePointer<UInt> {
        UnsafeMutableRawPointer(self).assumingMemoryBound(to: UInt.self)
    }

    /// The word's value.
    @inlinable @inline(__always)
    package func load(ordering: AtomicOrdering) -> UInt {
        jmk_atomic_load(word, ordering.c)
    }

    /// Replaces the word's value.
    @inlinable @inline(__always)
    package func store(_ value: UInt, ordering: AtomicOrdering) {
        jmk_atomic_store(word, value, ordering.c)
    }

    /// Replaces the word's value, returning the one it held.
    @inlinable @inline(__always)
    package func exchange(_ value: UInt, ordering: AtomicOrdering) -> UInt {
        jmk_atomic_exchange(word, value, ordering.c)
    }

    /// Adds `amount` to the word's value, wrapping around, and returns the value it held.
    @inlinable @inline(__always)
    @discardableResult
    package func wrappingAdd(_ amount: UInt, ordering: AtomicOrdering) -> UInt {
        jmk_atomic_fetch_add(word, amount, ordering.c)
    }

    /// Stores `desired` if the word holds `expected`.
    ///
    /// - Returns: Whether it stored, and the value the word held (`expected` when it stored).
    @inlinable @inline(__always)
    package func compareExchange(
        expected: UInt, desired: UInt, successOrdering: AtomicOrdering, failureOrdering: AtomicOrdering
    ) -> (exchanged: Bool, original: UInt) {
        var found = expected
        let exchanged = jmk_atomic_compare_exchange(word, &found, desired, successOrdering.c, failureOrdering.c)
        return (exchanged, found)
    }

    /// ``compareExchange(expected:desired:successOrdering:failureOrdering:)`` with one ordering
    /// for both outcomes (a failed exchange only loads, so it drops the release).
    @inlinable @inline(__always)
    package func compareExchange(
        expected: UInt, desired: UInt, ordering: AtomicOrdering
    ) -> (exchanged: Bool, original: UInt) {
        let failure: AtomicOrdering =
            switch ordering {
            case .releasing: .relaxed
            case .acquiringAndReleasing: .acquiring
            default: ordering
            }
        return compareExchange(expected: expected, desired: desired, successOrdering: ordering, failureOrdering: failure)
    }
}

/// An ``AtomicWord`` that a value owns: allocated with it, freed with it.
///
/// For a word stored in a class or a noncopyable value, which Swift may not give a fixed address
/// of its own. Costs an allocation, so the hot paths keep their words in memory they allocate
/// anyway (a model's words follow its cache slots).
@usableFromInline
package struct OwnedAtomicWord: ~Copyable, @unchecked Sendable {
    // @unchecked Sendable: the word is only touched through atomic operations.
    /// The word.
    package let pointer: UnsafeMutablePointer<AtomicWord>

    package init(_ bits: UInt) {
        pointer = allocatePlain(AtomicWord.self, capacity: 1)
        pointer.initialize(to: AtomicWord(bits))
    }

    deinit { freePlain(pointer) }
}
