#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

// The first read of a plain scalar property, without a conversion context.
//
// Most properties of most models are an integer, a Double, a Bool or a String (or an optional
// of one) under one key, with no converter. When the JSON holds exactly that kind of value, the
// read is a member lookup and a decode, and the cache entry is made with the concrete type.
// Everything else (a missing key, null, another kind, a number out of range, a converter, a
// nested path) returns nil here and takes the general path in `JSONModel+Reading.swift`,
// which records diagnostics and applies defaults. The one exception is an optional that reads
// nil when its key is missing or its value is null, which is decided here too: with no default
// declared and not required, nil is what the general path gives, without a diagnostic. A value
// read here is always the value the general path would give.

/// Reads a property's value from its member of the model's object (`MemberIndex.swift`) and
/// boxes it for the cache.
///
/// The readers here are types, not closures: a call through a metatype takes no reference
/// count, where a closure's context is retained and released around every call. The member is
/// passed as its document and tape index, which the caller holds, for the same reason.
struct ScalarFirstRead: Sendable {
    /// The type whose ``ScalarFirstReadable/plainValue(of:)`` reads the member.
    let reader: any ScalarFirstReadable.Type
    /// Whether the value is boxed as an optional.
    let optional: Bool
    /// Whether a missing key or null reads nil: an optional with no declared default, not required.
    var absentReadsNil = false

    /// The boxed value of the member at `index` of `document` (0: its key is missing), in an
    /// entry of `entryType` (the property's, `CacheBox` of its type); nil when the general path
    /// must decide.
    @inline(__always)
    func read(_ document: JSONDocument, _ index: Int, entryType: CacheEntry.Type) -> CacheEntry? {
        if index != 0, let entry = reader.readBoxed(document, index, optional: optional, entryType: entryType) {
            return entry
        }
        return absentReadsNil && isAbsent(document, index) ? reader.boxedNil() : nil
    }
}

/// A first read that stores the value in the model's slots (``CacheSlots``) rather than in an
/// entry of its own: for values of up to 16 bytes, and for a nested model's reference.
struct InlineFirstRead: Sendable {
    /// The type whose ``ScalarFirstReadable/plainValue(of:)`` reads the member; nil when the
    /// property's converter reads it (ConvertedFirstRead.swift).
    let reader: (any ScalarFirstReadable.Type)?
    /// Whether the value is stored as an optional.
    let optional: Bool
    /// The stored type: its identity, size and alignment, and whether it holds references.
    let type: ObjectIdentifier
    let size: Int
    let alignment: Int
    let isTrivial: Bool
    /// Whether the value is a model's reference (or an optional of one), which the model's
    /// release hands to the release loop below a certain depth (IterativeRelease.swift).
    var isModel = false
    /// Whether a missing key or null reads nil: an optional scalar with no declared default,
    /// not required. (Never a model's: the release of inline models expects a reference.)
    var absentReadsNil = false

    /// Reads the property's value from its member, at `index` of `document` (0: its key is
    /// missing), and initializes it at the pointer; false, with nothing written, when the
    /// general path must decide.
    ///
    /// - Parameter converter: The first read of the property's converter, for a property
    ///   without a ``reader`` of its own; nil otherwise.
    @inline(__always)
    func read(
        _ document: JSONDocument, _ index: Int, into place: UnsafeMutableRawPointer, converter: Unmanaged<FirstReader>?
    ) -> Bool {
        if let reader {
            if index != 0, reader.readInline(document, index, into: place, optional: optional) { return true }
            guard absentReadsNil, isAbsent(document, index) else { return false }
            reader.initializeNil(at: place)
            return true
        }
        return converter.unsafelyUnwrapped._withUnsafeGuaranteedRef { converter in
            if index != 0, converter.readInline(document, index, into: place, optional: optional) { return true }
            guard absentReadsNil, isAbsent(document, index) else { return false }
            converter.initializeNil(at: place)
            return true
        }
    }

}

/// Whether the member at `index` of `document` is missing (0) or null: what an optional with
/// no declared default reads as nil.
private func isAbsent(_ document: JSONDocument, _ index: Int) -> Bool {
    index == 0 || JSONNode(document: document, index: index).isNull
}

/// Where a property's inline value lives in a model's slots, and the slot's bits once it is there.
struct InlineLayout: Sendable {
    /// The byte offset from the slots' start.
    let offset: Int
    /// The filled slot: the type's bits, the offset and the tag (``CacheSlots``).
    let bits: UInt

    /// The layout of `read`'s value at `offset`, or nil when the bits cannot say it (an offset
    /// past 16 bits, or type metadata at an address outside the 48 bits a slot keeps).
    init?(_ read: InlineFirstRead, offset: Int) {
        let type = UInt(bitPattern: read.type)
        guard offset < 1 << 16, type & ~CacheSlots.typeMask == 0 else { return nil }
        self.offset = offset
        bits = CacheSlots.inlineBits(type: read.type, isTrivial: read.isTrivial) | UInt(offset) << 48
    }
}

/// A type whose values can be read without a conversion context, when the JSON has the kind
/// the type reads naturally.
protocol ScalarFirstReadable: PropertyValue {
    /// The value when `node` holds exactly this type's natural kind and converts cleanly.
    static func plainValue(of node: JSONNode) -> Self?
    /// The same reader storing the value inline, or nil for types kept in entries.
    static func inlineFirstRead(optional: Bool) -> InlineFirstRead?
    /// The member at `index` of `document` boxed, as `Self` or, with `optional`, as `Self?`;
    /// nil when the general path must decide.
    /// `entryType` is the class of the entry (`CacheBox` of `Self` or `Self?`).
    static func readBoxed(_ document: JSONDocument, _ index: Int, optional: Bool, entryType: CacheEntry.Type)
        -> CacheEntry?
    /// Reads the member at `index` of `document` into `place`, as `Self` or, with `optional`,
    /// as `Self?`; false, with nothing written, when the general path must decide.
    static func readInline(_ document: JSONDocument, _ index: Int, into place: UnsafeMutableRawPointer, optional: Bool)
        -> Bool
    /// Initializes `Self?.none` at `place`, for an optional whose key is missing or null.
    ///
    /// A requirement, not only an extension method, so that each conformance's witness knows
    /// `Self?` at compile time: called generically through the reader's metatype, the store
    /// would look `Self?` up at run time on every first read of a null.
    ///
    /// PERF: the first read of a missing or null optional; see jsonmodel-bench --section model, row (b).
    static func initializeNil(at place: UnsafeMutableRawPointer)
    /// `Self?.none` in an entry, for an optional whose key is missing or null; a requirement for
    /// the same reason.
    static func boxedNil() -> CacheEntry
}

extension ScalarFirstReadable {
    /// Initializes `Self?.none` at `place`, for an optional whose key is missing or null.
    @inline(__always)
    static func initializeNil(at place: UnsafeMutableRawPointer) {
        place.initializeMemory(as: Self?.self, to: nil)
    }

    /// `Self?.none` in an entry, for an optional whose key is missing or null.
    @inline(__always)
    static func boxedNil() -> CacheEntry {
        CacheBox<Self?>(nil)
    }
}

extension ScalarFirstReadable {
    /// A reader of a member, as `Self` or, with `optional`, as `Self?`.
    static func firstRead(optional: Bool) -> ScalarFirstRead {
        ScalarFirstRead(reader: Self.self, optional: optional)
    }

    /// The boxed read, as the default implementation: each conformance's witness has a concrete
    /// `Self`, so the optimizer specializes it, and it boxes without looking up generic metadata.
    @inline(__always)
    static func readBoxed(_ document: JSONDocument, _ index: Int, optional: Bool, entryType: CacheEntry.Type)
        -> CacheEntry?
    {
        guard let value = plainValue(of: JSONNode(document: document, index: index)) else { return nil }
        if optional {
            let wrapped: Self? = value
            return CacheBox(wrapped)
        }
        return CacheBox(value)
    }

    /// The inline reader, for values of up to 16 bytes (all of these types and their optionals).
    @inline(__always)
    static func inlineFirstRead(optional: Bool) -> InlineFirstRead? {
        optional ? inlineFirstRead(of: Self?.self, optional: true) : inlineFirstRead(of: Self.self, optional: false)
    }

    @inline(__always)
    static func readInline(_ document: JSONDocument, _ index: Int, into place: UnsafeMutableRawPointer, optional: Bool)
        -> Bool
    {
        guard let value = plainValue(of: JSONNode(document: document, index: index)) else { return false }
        if optional {
            place.initializeMemory(as: Self?.self, to: value)
        } else {
            place.initializeMemory(as: Self.self, to: value)
        }
        return true
    }

    private static func inlineFirstRead<Stored>(of type: Stored.Type, optional: Bool) -> InlineFirstRead? {
        guard MemoryLayout<Stored>.size <= 16, MemoryLayout<Stored>.alignment <= 8 else { return nil }
        return InlineFirstRead(
            reader: Self.self, optional: optional, type: ObjectIdentifier(Stored.self), size: MemoryLayout<Stored>.size,
            alignment: MemoryLayout<Stored>.alignment, isTrivial: _isPOD(Stored.self))
    }
}

extension FixedWidthInteger where Self: ScalarFirstReadable {
    /// The same exact-integer step that opens the general conversion (`PropertyValue+Scalars.swift`).
    @inline(__always)
    static func plainValue(of node: JSONNode) -> Self? {
        exactly(node.exactInteger)
    }

    /// The value of an integer's sign and magnitude, when `Self` holds it.
    @inline(__always)
    static func exactly(_ integer: (negative: Bool, magnitude: UInt64)?) -> Self? {
        guard let (negative, magnitude) = integer else { return nil }
        return Self(negative: negative, magnitude: magnitude)
    }
}

extension Int: ScalarFirstReadable {}
extension Int8: ScalarFirstReadable {}
extension Int16: ScalarFirstReadable {}
extension Int32: ScalarFirstReadable {}
extension Int64: ScalarFirstReadable {}
extension UInt: ScalarFirstReadable {}
extension UInt8: ScalarFirstReadable {}
extension UInt16: ScalarFirstReadable {}
extension UInt32: ScalarFirstReadable {}
extension UInt64: ScalarFirstReadable {}

extension Double: ScalarFirstReadable {
    /// A JSON number whose nearest `Double` is finite (`NumberParsing` rounds correctly, as
    /// `Double(String)` does on the general path), and not a nonzero number read as 0, for
    /// which the general path records the underflow.
    static func plainValue(of node: JSONNode) -> Double? {
        node.withNumberText(plainValue(ofNumber:)) ?? nil
    }

    /// ``plainValue(of:)`` for a number's text.
    @inline(__always)
    static func plainValue(ofNumber text: UnsafeBufferPointer<UInt8>) -> Double? {
        let value = NumberParsing.double(text)
        guard value.isFinite, value != 0 || !NumberText.isNonzero(text) else { return nil }
        return value
    }
}

extension Float: ScalarFirstReadable {
    /// A JSON number that one rounding reads (``NumberParsing/float(_:)``), as `Float(String)`
    /// reads it on the general path; other numbers take that path.
    static func plainValue(of node: JSONNode) -> Float? {
        node.withNumberText(plainValue(ofNumber:)) ?? nil
    }

    /// ``plainValue(of:)`` for a number's text.
    @inline(__always)
    static func plainValue(ofNumber text: UnsafeBufferPointer<UInt8>) -> Float? {
        NumberParsing.float(text)
    }
}

extension Bool: ScalarFirstReadable {
    static func plainValue(of node: JSONNode) -> Bool? { node.boolValue }
}

extension String: ScalarFirstReadable {
    static func plainValue(of node: JSONNode) -> String? { node.stringValue }
}

extension Date: ScalarFirstReadable {
    /// An unescaped string that the general path's first format, ISO 8601, or one of its
    /// fallbacks reads, and that ISO 8601 can write back (`DateReading` in JSONConverters.swift).
    /// Numbers and escaped strings take the general path.
    static func plainValue(of node: JSONNode) -> Date? {
        DateReading.plainDate(of: node, format: .iso8601)
    }
}

extension URL: ScalarFirstReadable {
    /// A nonempty string without escapes that `URL(string:)` reads, as on the general path; a
    /// text read recently is not parsed again (``RecentURLs``).
    static func plainValue(of node: JSONNode) -> URL? {
        node.withPlainStringUTF8 { bytes in bytes.isEmpty ? nil : RecentURLs.shared.url(fromUTF8: bytes) }
    }
}

extension UUID: ScalarFirstReadable {
    /// The 36 characters `8-4-4-4-12` of hexadecimal digits, either case, without escapes: read
    /// here from the bytes, with no string made. Other spellings take the general path, where
    /// `UUID(uuidString:)` decides.
    static func plainValue(of node: JSONNode) -> UUID? {
        node.withPlainStringUTF8(UUIDText.uuid(fromUTF8:))
    }
}

/// Reads the canonical text of a UUID from bytes.
enum UUIDText {
    /// The UUID spelled by exactly 36 bytes, `8-4-4-4-12` hexadecimal digits in either case;
    /// nil for anything else.
    ///
    /// The digits are read four at a time, as the scanner reads `\u` escapes (`hexQuadValue`):
    /// one load and a few operations for each group of four, where a digit at a time took a
    /// branch or two per digit.
    /// PERF: the UUID row of `jsonmodel-bench --section converters`.
    static func uuid(fromUTF8 bytes: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard bytes.count == 36, let start = bytes.baseAddress, bytes[8] == UInt8(ascii: "-"),
            bytes[13] == UInt8(ascii: "-"), bytes[18] == UInt8(ascii: "-"), bytes[23] == UInt8(ascii: "-")
        else { return nil }
        let text = UnsafeRawPointer(start)
        /// The value of the four digits at `offset`, or nil.
        @inline(__always)
        func quad(_ offset: Int) -> UInt16? {
            hexQuadValue(UInt32(littleEndian: text.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }
        // The groups of four digits: two in the first group of eight, one in each of the next
        // three groups, three in the last group of twelve.
        guard let q0 = quad(0), let q1 = quad(4), let q2 = quad(9), let q3 = quad(14), let q4 = quad(19),
            let q5 = quad(24), let q6 = quad(28), let q7 = quad(32)
        else { return nil }
        @inline(__always)
        func high(_ quad: UInt16) -> UInt8 { UInt8(truncatingIfNeeded: quad &>> 8) }
        @inline(__always)
        func low(_ quad: UInt16) -> UInt8 { UInt8(truncatingIfNeeded: quad) }
        return UUID(uuid: (
            high(q0), low(q0), high(q1), low(q1), high(q2), low(q2), high(q3), low(q3),
            high(q4), low(q4), high(q5), low(q5), high(q6), low(q6), high(q7), low(q7)))
    }
}

extension Array: ScalarFirstReadable where Element: ScalarPropertyValue & ScalarFirstReadable {
    /// An array whose elements all read as their first reads read them, in one pass over the
    /// tape compiled for the element type (`ScalarPropertyValue.plainElements(of:)`), as the
    /// general path reads them.
    static func plainValue(of node: JSONNode) -> [Element]? { Element.plainElements(of: node) }
}

extension JSONModel: ScalarFirstReadable {
    /// A nested model over an object, made as the general path makes one for an immutable model
    /// with none of the options that link it (`inverse`, `embedPath`) or a schema model.
    static func plainValue(of node: JSONNode) -> Self? {
        model(at: node.index, of: node.document)
    }

    /// ``plainValue(of:)`` for the member at `index` of `document`. The node is made here and
    /// moved into the model: one made by the caller would be copied, a retain and a release
    /// of the document per model.
    private static func model(at index: Int, of document: JSONDocument) -> Self? {
        guard document.entry(index).tag == .object else { return nil }
        return makeResolved(.node(JSONNode(document: document, index: index)), metadata: nil, mutable: false)
    }

    /// A nested model is kept as its reference in the slots, with no entry around it: one
    /// object fewer to make and free per nested model. `Self` and `Self?` have the layout of a
    /// reference; the release of the holding model treats these slots apart
    /// (``CacheSlots/releaseEntries(models:)``), so a deep chain still goes to the release loop.
    static func inlineFirstRead(optional: Bool) -> InlineFirstRead? {
        InlineFirstRead(
            reader: Self.self, optional: optional, type: ObjectIdentifier(optional ? Self?.self : Self.self),
            size: MemoryLayout<JSONModel>.size, alignment: MemoryLayout<JSONModel>.alignment, isTrivial: false,
            isModel: true)
    }

    /// The nested model stored as a reference, the layout of both `Self` and `Self?`: written
    /// without looking up the metadata of `Self`, which is only known at run time here.
    static func readInline(_ document: JSONDocument, _ index: Int, into place: UnsafeMutableRawPointer, optional: Bool)
        -> Bool
    {
        guard let model = model(at: index, of: document) else { return false }
        place.initializeMemory(as: JSONModel.self, to: model)
        return true
    }

    /// The entry class is the property's, looked up with its metadata: `Self` is only known at
    /// run time here, so `CacheBox<Self>` made here would look up its metadata on every read.
    static func readBoxed(_ document: JSONDocument, _ index: Int, optional: Bool, entryType: CacheEntry.Type)
        -> CacheEntry?
    {
        guard let model = model(at: index, of: document) else { return nil }
        return entryType.boxing(model: model)
    }
}

extension PropertyMetadata {
    /// The first read for a property whose converter may read its member without a context
    /// (ConvertedFirstRead.swift): a value of the user's type, a `Date` with a `dateFormat`, a
    /// `String` with `enumValues`, or an optional of one, under one key, stored in the slots.
    /// Nil for anything else, and for values larger than 16 bytes.
    static func convertedFirstRead(
        type: PropertyType, paths: [JSONPath], options: PropertyOptions, absentReadsNil: Bool, entryType: CacheEntry.Type
    ) -> InlineFirstRead? {
        guard paths.count == 1, paths[0].segments.count == 1, case .key = paths[0].segments[0] else { return nil }
        guard options.embedPath == nil, !options.cachedObject, options.inverse == nil, !options.group else { return nil }
        let optional: Bool
        switch type {
        case .custom(let custom):
            optional = custom.isOptional
        case .date where options.dateFormat != nil, .string where options.enumValues != nil:
            optional = false
        case .optional(.date) where options.dateFormat != nil, .optional(.string) where options.enumValues != nil:
            optional = true
        default:
            return nil
        }
        let stored = entryType.storedLayout
        guard stored.size <= 16, stored.alignment <= 8 else { return nil }
        return InlineFirstRead(
            reader: nil, optional: optional, type: stored.type, size: stored.size, alignment: stored.alignment,
            isTrivial: stored.isTrivial, absentReadsNil: optional && absentReadsNil)
    }

    /// The scalar first read for a declaration, or nil when it needs the general path: more
    /// than one path or a nested one, any option that brings a converter or a structure, or a
    /// type other than a plain scalar, an array of a compiled class's models, or an optional of one.
    ///
    /// `absentReadsNil` tells whether the property, when optional, reads nil for a missing key
    /// or null: the caller knows its default and whether it is required.
    static func scalarFirstRead(type: PropertyType, paths: [JSONPath], options: PropertyOptions, absentReadsNil: Bool)
        -> (boxed: ScalarFirstRead, inline: InlineFirstRead?)?
    {
        guard paths.count == 1, paths[0].segments.count == 1, case .key = paths[0].segments[0] else { return nil }
        guard options.enumValues == nil, options.dateFormat == nil, options.embedPath == nil, options.converter == nil,
            !options.cachedObject, options.inverse == nil, !options.group
        else { return nil }
        // A schema model's class is `DynamicModel` for every schema; the general path finds which.
        switch type {
        case .schemaModel, .optional(.schemaModel), .array(.schemaModel), .optional(.array(.schemaModel)): return nil
        case .model(let model) where model is DynamicModel.Type: return nil
        case .optional(.model(let model)) where model is DynamicModel.Type: return nil
        case .array(.model(let model)) where model is DynamicModel.Type: return nil
        case .optional(.array(.model(let model))) where model is DynamicModel.Type: return nil
        default: break
        }
        // The stored type, not the declared one: an array of models is read as its lazy array.
        switch type {
        case .optional(let wrapped):
            if case .optional = wrapped { return nil }
            guard let scalar = wrapped.storageType as? any ScalarFirstReadable.Type else { return nil }
            var boxed = scalar.firstRead(optional: true)
            var inline = scalar.inlineFirstRead(optional: true)
            if absentReadsNil {
                boxed.absentReadsNil = true
                if inline?.isModel == false { inline?.absentReadsNil = true }
            }
            return (boxed, inline)
        default:
            guard let scalar = type.storageType as? any ScalarFirstReadable.Type else { return nil }
            return (scalar.firstRead(optional: false), scalar.inlineFirstRead(optional: false))
        }
    }
}
