import JSONModelKitCore

/// A word that test threads share, read and written atomically.
///
/// The library's own ``AtomicWord``, not the standard library's `Atomic`, so that the tests
/// build for the releases the package supports, which have no `Atomic` before macOS 15 and
/// iOS 18.
package final class SharedWord: Sendable {
    private let word: OwnedAtomicWord

    package init(_ value: UInt = 0) {
        word = OwnedAtomicWord(value)
    }

    /// The word's value.
    package var value: UInt { word.pointer.load(ordering: .acquiring) }

    /// The word's value as a signed count.
    package var count: Int { Int(bitPattern: value) }

    /// Replaces the value.
    package func store(_ value: UInt) { word.pointer.store(value, ordering: .releasing) }

    /// Adds `amount`, wrapping around, and returns the new value.
    @discardableResult
    package func add(_ amount: UInt) -> UInt {
        var old = value
        while true {
            let (exchanged, found) = word.pointer.compareExchange(
                expected: old, desired: old &+ amount, ordering: .acquiringAndReleasing)
            if exchanged { return old &+ amount }
            old = found
        }
    }
}
