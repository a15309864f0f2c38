import JSONModelKitCore

// The first read of a property whose value a converter makes from a plain member: a string
// enum's own conversion, a raw-value enum's, a declared `enumValues` or `dateFormat`.
//
// Like the scalar first read (ScalarFirstRead.swift), it reads the member the object walk found
// and stores the value in the model's slots, with no conversion context and no cache entry. Which
// converter applies can change while the program runs (a registration for the property or its
// type), so the reader is not kept with the property: it comes with the converter the lookup
// chose and published (``PropertyConversion/publishedFirstReader``). A converter without one,
// such as a closure of the user's, takes the general path. Whatever the reader does not take
// (a value the converter would read with a diagnostic, another kind, an escaped string) takes
// the general path too, so a value read here is always the value the general path would give.

/// Reads a member as a converter would, when it converts without a diagnostic.
///
/// A class, so that the published choice can hold it and a read can use it without a reference
/// count. Not generic: the value's type is the user's, known at run time, and generic code over
/// it runs unspecialised, where every use of `Value?` looks up that optional type's metadata
/// (about 70 instructions each time). So the converter's closure writes the value in place, and
/// an optional's tag, the byte after the value for a type without spare bits, is set here from a
/// layout measured once.
final class FirstReader: @unchecked Sendable {
    // @unchecked Sendable: immutable, and the closures are Sendable.
    private let write: @Sendable (JSONNode, UnsafeMutableRawPointer) -> Bool
    private let writeNil: @Sendable (UnsafeMutableRawPointer) -> Void
    /// The offset of the optional's tag byte, which is 0 for a value; -1 when the optional has
    /// the size of the value (a value's bits then are the optional's).
    private let optionalTag: Int

    /// - Parameter write: Initializes a `Value` for a node at the pointer and returns true when
    ///   the converter reads it without a diagnostic; returns false, with nothing written, otherwise.
    init<Value>(_ type: Value.Type, writing write: @escaping @Sendable (JSONNode, UnsafeMutableRawPointer) -> Bool) {
        self.write = write
        writeNil = { place in place.initializeMemory(as: Value?.self, to: nil) }
        optionalTag = MemoryLayout<Value?>.size > MemoryLayout<Value>.size ? MemoryLayout<Value>.size : -1
    }

    /// - Parameter plainValue: The value of a node when the converter reads it without a
    ///   diagnostic; nil for anything else.
    convenience init<Value>(_ plainValue: @escaping @Sendable (JSONNode) -> Value?) {
        self.init(Value.self, writing: { node, place in
            guard let value = plainValue(node) else { return false }
            place.initializeMemory(as: Value.self, to: value)
            return true
        })
    }

    /// Reads the member at `index` of `document` into `place`, as the converter's value or, with
    /// `optional`, an optional of it; false, with nothing written, when the general path must decide.
    func readInline(_ document: JSONDocument, _ index: Int, into place: UnsafeMutableRawPointer, optional: Bool) -> Bool {
        guard write(JSONNode(document: document, index: index), place) else { return false }
        // An optional holding a value: the value's bits, and a tag byte of 0 when it has one.
        if optional && optionalTag >= 0 { place.storeBytes(of: 0, toByteOffset: optionalTag, as: UInt8.self) }
        return true
    }

    /// Initializes an optional's nil at `place`, for a missing key or null.
    func initializeNil(at place: UnsafeMutableRawPointer) {
        writeNil(place)
    }
}

extension JSONNode {
    /// The bytes of a string without escapes, for readers that take only those (an escaped
    /// string takes the general path, which unescapes it).
    @inline(__always)
    func withPlainStringUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R?) -> R? {
        let entry = entry
        guard entry.tag == .string else { return nil }
        return document.withBytes(entry.byteRange, body)
    }
}
