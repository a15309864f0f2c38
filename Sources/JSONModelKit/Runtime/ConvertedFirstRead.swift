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
/// A class, so that the published choice can hold it and a read can use it without a
/// reference count; ``TypedFirstReader`` is the one subclass.
class FirstReader: @unchecked Sendable {
    // @unchecked Sendable: immutable; subclasses hold only Sendable closures.

    /// Reads the member at `index` of `document` into `place`, as the converter's value or, with
    /// `optional`, an optional of it; false, with nothing written, when the general path must decide.
    func readInline(_ document: JSONDocument, _ index: Int, into place: UnsafeMutableRawPointer, optional: Bool) -> Bool {
        preconditionFailure("FirstReader is abstract")
    }

    /// Initializes an optional's nil at `place`, for a missing key or null.
    func initializeNil(at place: UnsafeMutableRawPointer) {
        preconditionFailure("FirstReader is abstract")
    }
}

/// A ``FirstReader`` of values of type `Value`.
///
/// Its code is generic and runs unspecialised (the type is the user's, known at run time), where
/// every use of `Value?` looks up that optional type's metadata: about 70 instructions each
/// time. So the value is written in place by the converter's closure, and an optional's tag, the
/// byte after the value for a type without spare bits, is set here from a layout measured once.
final class TypedFirstReader<Value>: FirstReader, @unchecked Sendable {
    // @unchecked Sendable: the closure is Sendable, and `Value` is a property type, all of which are.
    private let write: @Sendable (JSONNode, UnsafeMutableRawPointer) -> Bool
    /// The offset of `Value?`'s tag byte, which is 0 for a value; -1 when `Value?` has the size
    /// of `Value` (a value's bits then are the optional's).
    private let optionalTag: Int

    /// - Parameter write: Initializes the value of a node at the pointer and returns true when the
    ///   converter reads it without a diagnostic; returns false, with nothing written, otherwise.
    init(writing write: @escaping @Sendable (JSONNode, UnsafeMutableRawPointer) -> Bool) {
        self.write = write
        optionalTag = MemoryLayout<Value?>.size > MemoryLayout<Value>.size ? MemoryLayout<Value>.size : -1
    }

    /// - Parameter plainValue: The value of a node when the converter reads it without a
    ///   diagnostic; nil for anything else.
    convenience init(_ plainValue: @escaping @Sendable (JSONNode) -> Value?) {
        self.init(writing: { node, place in
            guard let value = plainValue(node) else { return false }
            place.initializeMemory(as: Value.self, to: value)
            return true
        })
    }

    override func readInline(
        _ document: JSONDocument, _ index: Int, into place: UnsafeMutableRawPointer, optional: Bool
    ) -> Bool {
        guard write(JSONNode(document: document, index: index), place) else { return false }
        // An optional holding a value: the value's bits, and a tag byte of 0 when it has one.
        if optional && optionalTag >= 0 { place.storeBytes(of: 0, toByteOffset: optionalTag, as: UInt8.self) }
        return true
    }

    override func initializeNil(at place: UnsafeMutableRawPointer) {
        place.initializeMemory(as: Value?.self, to: nil)
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
