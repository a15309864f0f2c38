// The storage of JSON arrays and objects: a growable, copy-on-write buffer like `Array`'s,
// whose storage class frees nested arrays and objects from a loop rather than recursively.
//
// When the last reference to a Swift `Array` goes away, Swift frees its elements right there,
// and an element that is an array frees its own elements inside that, one set of stack frames
// per level: a `JSONValue` tens of thousands of levels deep would overflow the stack. Our
// own storage class has a `deinit`, and there it hands the nested containers to
// `IterativeRelease` instead of freeing them in place (see `ContainerStorage`).

/// The header of a container's storage.
@usableFromInline
package struct ContainerHeader {
    /// How many elements are initialized.
    @usableFromInline package var count: Int
    /// How many elements the storage has room for.
    @usableFromInline package var capacity: Int

    @inlinable
    package init(count: Int, capacity: Int) {
        self.count = count
        self.capacity = capacity
    }
}

/// The storage of a ``ContainerBuffer``: a header and the elements, in one allocation.
@usableFromInline
package final class ContainerStorage<Element>: ManagedBuffer<ContainerHeader, Element> {
    deinit {
        withUnsafeMutablePointers { header, elements in
            ContainerTeardown.destroy(elements, count: header.pointee.count)
        }
    }
}

/// Frees the elements of a container's storage without recursing into nested containers.
enum ContainerTeardown {
    /// Deinitializes `count` elements at `elements`, handing the storage of every nested array
    /// and object to `IterativeRelease` rather than freeing it here.
    ///
    /// Elements that hold no container (the common case: strings, numbers, leaf arrays) are
    /// freed in place, as `Array` would; so is everything when no element is a container.
    static func destroy<Element>(_ elements: UnsafeMutablePointer<Element>, count: Int) {
        if Element.self == JSONValue.self {
            destroyValues(UnsafeMutableRawPointer(elements).assumingMemoryBound(to: JSONValue.self), count: count)
        } else if Element.self == JSONObject.Element.self {
            let members = UnsafeMutableRawPointer(elements).assumingMemoryBound(to: JSONObject.Element.self)
            var index = 0
            while index < count && !members[index].value.isContainer { index += 1 }
            guard index < count else {
                members.deinitialize(count: count)
                return
            }
            let state = ThreadState.current
            for position in 0..<count {
                let member = (members + position).move()
                hand(member.value, to: state)
            }
            IterativeRelease.drain(state)
        } else {
            elements.deinitialize(count: count)
        }
    }

    private static func destroyValues(_ values: UnsafeMutablePointer<JSONValue>, count: Int) {
        var index = 0
        while index < count && !values[index].isContainer { index += 1 }
        guard index < count else {
            values.deinitialize(count: count)
            return
        }
        let state = ThreadState.current
        for position in 0..<count {
            hand((values + position).move(), to: state)
        }
        IterativeRelease.drain(state)
    }

    /// Puts the storage of a container on the thread's list; frees a scalar now.
    @inline(__always)
    private static func hand(_ value: consuming JSONValue, to state: ThreadState) {
        switch value {
        case .array(let array):
            if let storage = array.buffer.storage { state.releasing.append(storage) }
        case .object(let object):
            if let storage = object.members.buffer.storage { state.releasing.append(storage) }
        default:
            break
        }
    }
}

extension JSONValue {
    /// Whether the value is an array or an object with elements (whose storage may hold more).
    @inline(__always)
    var isContainer: Bool {
        switch self {
        case .array(let array): return array.buffer.storage != nil
        case .object(let object): return object.members.buffer.storage != nil
        default: return false
        }
    }
}

/// A growable buffer with copy-on-write, like `Array`, over a ``ContainerStorage``.
///
/// Empty buffers allocate nothing. Indices are the offsets from 0.
@usableFromInline
package struct ContainerBuffer<Element> {
    @usableFromInline
    package var storage: ContainerStorage<Element>?

    @inlinable
    package init() {
        storage = nil
    }

    @inlinable
    init(minimumCapacity: Int) {
        storage = minimumCapacity > 0 ? Self.allocate(capacity: minimumCapacity) : nil
    }

    @inlinable
    package init<S: Sequence>(_ elements: S) where S.Element == Element {
        let copied = elements.withContiguousStorageIfAvailable { source -> ContainerStorage<Element>? in
            guard let base = source.baseAddress, !source.isEmpty else { return nil }
            let storage = Self.allocate(capacity: source.count)
            let (header, destination) = Self.pointers(storage)
            destination.initialize(from: base, count: source.count)
            header.pointee.count = source.count
            return storage
        }
        if let copied {
            storage = copied
            return
        }
        let capacity = elements.underestimatedCount
        storage = capacity > 0 ? Self.allocate(capacity: capacity) : nil
        for element in elements { append(element) }
    }

    /// The header and the first element of `storage`, for code that keeps `storage` alive while
    /// it uses them (an element moved in through a closure would be copied instead).
    @inlinable @inline(__always)
    static func pointers(_ storage: ContainerStorage<Element>)
        -> (header: UnsafeMutablePointer<ContainerHeader>, elements: UnsafeMutablePointer<Element>)
    {
        storage.withUnsafeMutablePointers { ($0, $1) }
    }

    @inlinable
    static func allocate(capacity: Int) -> ContainerStorage<Element> {
        let buffer = ContainerStorage<Element>.create(minimumCapacity: capacity) { _ in
            ContainerHeader(count: 0, capacity: capacity)
        }
        return unsafeDowncast(buffer, to: ContainerStorage<Element>.self)
    }

    @inlinable
    var capacity: Int {
        guard let storage else { return 0 }
        return storage.withUnsafeMutablePointerToHeader { $0.pointee.capacity }
    }

    /// Makes the storage this buffer's own, with room for at least `minimumCapacity` elements.
    ///
    /// Shared storage is copied (its elements retained); unique storage that is too small is
    /// replaced by one twice as large, the elements moved.
    @inlinable
    mutating func reserve(_ minimumCapacity: Int) {
        let unique = isKnownUniquelyReferenced(&storage)
        let capacity = self.capacity
        if unique && capacity >= minimumCapacity { return }
        let count = self.count
        // A shared storage large enough is copied at the size needed; one too small grows by doubling.
        let newCapacity =
            capacity >= minimumCapacity ? Swift.max(count, minimumCapacity, 1) : Swift.max(minimumCapacity, capacity * 2, 4)
        let new = Self.allocate(capacity: newCapacity)
        if let old = storage {
            old.withUnsafeMutablePointers { oldHeader, oldElements in
                new.withUnsafeMutablePointers { newHeader, newElements in
                    if unique {
                        newElements.moveInitialize(from: oldElements, count: count)
                        oldHeader.pointee.count = 0
                    } else {
                        newElements.initialize(from: oldElements, count: count)
                    }
                    newHeader.pointee.count = count
                }
            }
        }
        storage = new
    }

    @inlinable
    package mutating func append(_ element: __owned Element) {
        if isKnownUniquelyReferenced(&storage) {
            let header = Self.pointers(storage.unsafelyUnwrapped).header
            if header.pointee.count == header.pointee.capacity { reserve(header.pointee.count + 1) }
        } else {
            reserve(count + 1)
        }
        let (header, elements) = Self.pointers(storage.unsafelyUnwrapped)
        let count = header.pointee.count
        (elements + count).initialize(to: element)
        header.pointee.count = count + 1
    }

    @inlinable
    package mutating func removeAll(keepingCapacity keepCapacity: Bool) {
        guard keepCapacity, isKnownUniquelyReferenced(&storage) else {
            storage = nil
            return
        }
        storage.unsafelyUnwrapped.withUnsafeMutablePointers { header, elements in
            let count = header.pointee.count
            header.pointee.count = 0
            elements.deinitialize(count: count)
        }
    }

    /// Calls `body` with the elements in place: one reference to the storage for the whole
    /// call, where a loop of subscripts may take one per element.
    @inlinable
    func withElements<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R {
        guard let storage else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try storage.withUnsafeMutablePointers { header, elements in
            try body(UnsafeBufferPointer(start: elements, count: header.pointee.count))
        }
    }

    /// The address of the first element (nil when empty), for loops that keep this buffer
    /// alive and unchanged while they read through it.
    @inlinable
    var elementsAddress: UnsafeMutablePointer<Element>? {
        storage?.withUnsafeMutablePointerToElements { $0 }
    }

    /// An array of the elements.
    @inlinable
    var array: [Element] {
        guard let storage else { return [] }
        return storage.withUnsafeMutablePointers { header, elements in
            Array(UnsafeBufferPointer(start: elements, count: header.pointee.count))
        }
    }
}

// @unchecked Sendable: the storage is changed only through a buffer that holds the only
// reference to it (copy on write), as Array's is.
extension ContainerBuffer: @unchecked Sendable where Element: Sendable {}

/// Iterates over a buffer's elements through a pointer, holding the storage alive: no
/// reference counting of the storage per element, as `Array`'s iterator.
@usableFromInline
package struct ContainerIterator<Element>: IteratorProtocol {
    @usableFromInline let storage: ContainerStorage<Element>?
    @usableFromInline let elements: UnsafeMutablePointer<Element>?
    @usableFromInline let count: Int
    @usableFromInline var position = 0

    @inlinable
    init(_ storage: ContainerStorage<Element>?) {
        self.storage = storage
        if let storage {
            (elements, count) = storage.withUnsafeMutablePointers { ($1, $0.pointee.count) }
        } else {
            (elements, count) = (nil, 0)
        }
    }

    @inlinable
    package mutating func next() -> Element? {
        guard position < count else { return nil }
        defer { position += 1 }
        // The storage is alive (held above) and not changed: a writer holding the buffer
        // copies it first, since this iterator holds a reference.
        return elements.unsafelyUnwrapped[position]
    }
}

extension ContainerBuffer: RandomAccessCollection, MutableCollection {
    @usableFromInline package typealias Index = Int
    @usableFromInline package typealias Indices = Range<Int>

    @inlinable
    package func makeIterator() -> ContainerIterator<Element> {
        ContainerIterator(storage)
    }

    @inlinable package var startIndex: Int { 0 }

    @inlinable
    package var endIndex: Int {
        guard let storage else { return 0 }
        return storage.withUnsafeMutablePointerToHeader { $0.pointee.count }
    }

    @inlinable package var count: Int { endIndex }

    @inlinable
    package subscript(position: Int) -> Element {
        get {
            precondition(position >= 0 && position < count, "Index out of range")
            return storage.unsafelyUnwrapped.withUnsafeMutablePointerToElements { $0[position] }
        }
        _modify {
            precondition(position >= 0 && position < count, "Index out of range")
            reserve(count)
            let element = storage.unsafelyUnwrapped.withUnsafeMutablePointerToElements { $0 + position }
            // The storage is this buffer's own and stays alive while `self` is being modified.
            yield &element.pointee
        }
    }

    @inlinable
    package func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows -> R? {
        guard let storage else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try storage.withUnsafeMutablePointers { header, elements in
            try body(UnsafeBufferPointer(start: elements, count: header.pointee.count))
        }
    }
}

extension ContainerBuffer: RangeReplaceableCollection {
    @inlinable
    package mutating func reserveCapacity(_ minimumCapacity: Int) {
        reserve(Swift.max(minimumCapacity, count))
    }

    @inlinable
    package mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: __owned C)
    where C.Element == Element {
        let oldCount = count
        precondition(subrange.lowerBound >= 0 && subrange.upperBound <= oldCount, "Range out of bounds")
        let insertCount = newElements.count
        let newCount = oldCount - subrange.count + insertCount
        if newCount == 0 {
            storage = nil
            return
        }
        reserve(newCount)
        storage.unsafelyUnwrapped.withUnsafeMutablePointers { header, elements in
            let start = elements + subrange.lowerBound
            start.deinitialize(count: subrange.count)
            // Move the tail to its new place, then fill the gap.
            let tailCount = oldCount - subrange.upperBound
            if insertCount != subrange.count && tailCount > 0 {
                (start + insertCount).moveInitialize(from: elements + subrange.upperBound, count: tailCount)
            }
            var position = start
            for element in newElements {
                position.initialize(to: element)
                position += 1
            }
            header.pointee.count = newCount
        }
    }

    @inlinable
    package mutating func append<S: Sequence>(contentsOf newElements: __owned S) where S.Element == Element {
        reserve(count + newElements.underestimatedCount)
        for element in newElements { append(element) }
    }

    @inlinable
    @discardableResult
    mutating func removeLast() -> Element {
        let count = self.count
        precondition(count > 0, "Can't remove last element from an empty collection")
        reserve(count)
        return storage.unsafelyUnwrapped.withUnsafeMutablePointers { header, elements in
            header.pointee.count = count - 1
            return (elements + count - 1).move()
        }
    }
}
