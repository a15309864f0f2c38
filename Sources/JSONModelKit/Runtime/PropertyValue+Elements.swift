#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

// The elements of an array property, each converted to the element type.
//
// A property's type is known only at run time, so `Array.convert` runs as unspecialized generic
// code, one level per level of nesting. Three rules keep its cost per element low:
// - The loops are in the functions' own bodies, not in closures, so that the type metadata they
//   need (`[Self]`, `Self?`) is looked up once per array rather than once per element.
// - Each scalar type has loops compiled for it, for its arrays and for arrays of its arrays
//   (`ScalarPropertyValue`): `[[[Double]]]` runs generic code only for its outer level.
// - Those loops read an element straight from the tape where its first read can
//   (`ScalarFirstReadable`), and put the element's index on the path only for an element that
//   takes the general conversion, the one that records diagnostics.
// The values and diagnostics are those of the general conversion, element by element.

extension PropertyValue {
    /// Each element through ``convert(_:context:)``: the default of
    /// ``convertElements(of:as:context:)``.
    static func convertElements<Element>(of input: JSONInput, as elementType: Element.Type, context: inout ConversionContext)
        -> [Element]
    {
        elements(convertEachElement(of: input, context: &context), as: elementType)
    }

    /// Each element through `[Self]`'s conversion: the default of
    /// ``convertArrays(of:as:context:)``.
    static func convertArrays<Element>(of input: JSONInput, as elementType: Element.Type, context: inout ConversionContext)
        -> [Element]
    {
        [Self].elements([Self].convertEachElement(of: input, context: &context), as: elementType)
    }

    /// `elements` as the array of `Element` it is: `Element` is `Self`
    /// (``convertElements(of:as:context:)``).
    @inline(__always)
    static func elements<Element>(_ elements: [Self], as elementType: Element.Type) -> [Element] {
        precondition(Element.self == Self.self, "the elements of [\(Element.self)] read as \(Self.self)")
        return unsafeBitCast(elements, to: [Element].self)
    }

    /// Each element of an array through ``convert(_:context:)``, with its index on the path; an
    /// element that does not convert is left out, or takes ``failedElementValue``.
    ///
    /// - Complexity: O(*n*) conversions of the *n* elements.
    static func convertEachElement(of input: JSONInput, context: inout ConversionContext) -> [Self] {
        var result: [Self] = []
        switch input {
        case .node(let node):
            let entry = node.entry
            guard entry.tag == .array, entry.containerCount > 0 else { return result }
            // Sized once: growing by doubling holds the old and new storage at once (PERF: peak
            // memory of the numbers workload in HostileInputMemoryTests).
            result.reserveCapacity(entry.containerCount)
            let document = node.document
            let end = entry.containerEnd
            var position = node.index + 1
            var index = 0
            while position < end {
                appendConverted(.node(JSONNode(document: document, index: position)), at: index, to: &result, context: &context)
                position = document.next(after: position)
                index += 1
            }
        case .value(let value):
            guard case .array(let elements) = value else { return result }
            result.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                appendConverted(.value(element), at: index, to: &result, context: &context)
            }
        }
        return result
    }

    /// Converts the element at `index` with the index on the path, and appends the value, or
    /// ``failedElementValue`` when it does not convert and there is one.
    @inline(__always)
    static func appendConverted(
        _ element: JSONInput, at index: Int, to result: inout [Self], context: inout ConversionContext
    ) {
        context.segments.append(.index(index))
        defer { context.segments.removeLast() }
        if let value = convert(element, context: &context) {
            result.append(value)
        } else if let fallback = failedElementValue {
            result.append(fallback)
        }
    }
}

/// A scalar property type: its arrays, and arrays of its arrays, read in loops compiled for it,
/// with no type metadata to look up, each element read straight from the tape where it can be.
// PERF: loops compiled for each scalar type; see jsonmodel-bench --section documents.
protocol ScalarPropertyValue: PropertyValue {
    /// The element at tape index `position` of `document` when the general conversion would read
    /// it without a diagnostic, as that conversion reads it; nil when that conversion must decide.
    static func plainElement(at position: Int, of document: JSONDocument) -> Self?
    /// The elements of an array node when each reads by ``plainElement(at:of:)``; nil when one
    /// does not, or when the node is not an array: an array's first read.
    static func plainElements(of node: JSONNode) -> [Self]?
}

extension ScalarPropertyValue {
    /// No element is read apart from the general conversion.
    @inline(__always)
    static func plainElement(at position: Int, of document: JSONDocument) -> Self? { nil }

    @inline(__always)
    static func convertElements<Element>(of input: JSONInput, as elementType: Element.Type, context: inout ConversionContext)
        -> [Element]
    {
        elements(readElements(of: input, context: &context), as: elementType)
    }

    @inline(__always)
    static func convertArrays<Element>(of input: JSONInput, as elementType: Element.Type, context: inout ConversionContext)
        -> [Element]
    {
        [Self].elements(readArrays(of: input, context: &context), as: elementType)
    }

    @inline(__always)
    static func plainElements(of node: JSONNode) -> [Self]? {
        plainElements(at: node.index, of: node.document)
    }

    /// ``plainElements(of:)`` for the node at tape index `index` of `document`, without making
    /// the node, which retains and releases the document.
    @inline(__always)
    static func plainElements(at index: Int, of document: JSONDocument) -> [Self]? {
        let entry = document.entry(index)
        guard entry.tag == .array else { return nil }
        // An empty array is common (citm_catalog.json has thousands), and reserving room for
        // nothing still calls into the standard library, which replaces the empty storage.
        // PERF: citm_catalog.json's `blockIds` in `jsonmodel-bench --section documents`.
        guard entry.containerCount > 0 else { return [] }
        // The first element before any memory: types that read no element plainly stop here.
        guard let first = plainElement(at: index + 1, of: document) else { return nil }
        var result: [Self] = []
        result.reserveCapacity(entry.containerCount)
        result.append(first)
        let end = entry.containerEnd
        var position = document.next(after: index + 1)
        while position < end {
            guard let value = plainElement(at: position, of: document) else { return nil }
            result.append(value)
            position = document.next(after: position)
        }
        return result
    }

    /// The elements of an array, each read by ``plainElement(at:of:)`` where it reads and through
    /// ``convert(_:context:)`` at its own path otherwise: the values and diagnostics of
    /// ``convertEachElement(of:context:)``.
    ///
    /// - Complexity: O(*n*) in the number of elements.
    @inline(__always)
    static func readElements(of input: JSONInput, context: inout ConversionContext) -> [Self] {
        guard case .node(let node) = input else { return convertEachElement(of: input, context: &context) }
        var result: [Self] = []
        let entry = node.entry
        guard entry.tag == .array, entry.containerCount > 0 else { return result }
        result.reserveCapacity(entry.containerCount)
        let document = node.document
        let end = entry.containerEnd
        var position = node.index + 1
        var index = 0
        while position < end {
            if let value = plainElement(at: position, of: document) {
                result.append(value)
            } else {
                appendConverted(.node(JSONNode(document: document, index: position)), at: index, to: &result, context: &context)
            }
            position = document.next(after: position)
            index += 1
        }
        return result
    }

    /// The elements of an array of arrays of this type, each inner array read by
    /// ``plainElements(at:of:)`` or else ``readElements(of:context:)``, and anything else through
    /// `[Self]`'s conversion, at its own path: the values and diagnostics of `[Self]`'s
    /// ``convertEachElement(of:context:)``.
    ///
    /// - Complexity: O(*n*) in the number of elements of the inner arrays.
    @inline(__always)
    static func readArrays(of input: JSONInput, context: inout ConversionContext) -> [[Self]] {
        guard case .node(let node) = input else { return [Self].convertEachElement(of: input, context: &context) }
        var result: [[Self]] = []
        let entry = node.entry
        guard entry.tag == .array, entry.containerCount > 0 else { return result }
        result.reserveCapacity(entry.containerCount)
        let document = node.document
        let end = entry.containerEnd
        var position = node.index + 1
        var index = 0
        while position < end {
            // An inner array whose elements all read plainly needs neither its place on the path
            // nor a node: pushing and popping the one and retaining and releasing the document
            // for the other cost more than reading its two coordinates (canada.json).
            // PERF: canada.json in jsonmodel-bench --section documents.
            if let plain = plainElements(at: position, of: document) {
                result.append(plain)
            } else {
                context.segments.append(.index(index))
                let element = JSONInput.node(JSONNode(document: document, index: position))
                if document.entry(position).tag == .array {
                    result.append(readElements(of: element, context: &context))
                } else if let value = [Self].convert(element, context: &context) {
                    result.append(value)
                }
                context.segments.removeLast()
            }
            position = document.next(after: position)
            index += 1
        }
        return result
    }
}

extension ScalarPropertyValue where Self: ScalarFirstReadable {
    /// The element where its first read reads it.
    @inline(__always)
    static func plainElement(at position: Int, of document: JSONDocument) -> Self? {
        plainValue(of: JSONNode(document: document, index: position))
    }
}

// Numbers and Booleans read from the entry and the bytes, without a node: made for each element,
// a node retains and releases the document.

extension FixedWidthInteger where Self: ScalarPropertyValue & ScalarFirstReadable {
    @inline(__always)
    static func plainElement(at position: Int, of document: JSONDocument) -> Self? {
        exactly(document.exactInteger(of: document.entry(position)))
    }
}

extension Double {
    @inline(__always)
    static func plainElement(at position: Int, of document: JSONDocument) -> Double? {
        document.withNumberText(at: position, plainValue(ofNumber:)) ?? nil
    }
}

extension Float {
    @inline(__always)
    static func plainElement(at position: Int, of document: JSONDocument) -> Float? {
        document.withNumberText(at: position, plainValue(ofNumber:)) ?? nil
    }
}

extension Bool {
    @inline(__always)
    static func plainElement(at position: Int, of document: JSONDocument) -> Bool? {
        switch document.entry(position).tag {
        case .true: true
        case .false: false
        default: nil
        }
    }
}

extension JSONDocument {
    /// Calls `body` with the text of the number at tape index `position`; nil for other kinds.
    @inline(__always)
    fileprivate func withNumberText<R>(at position: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        let entry = entry(position)
        guard entry.tag == .integer || entry.tag == .decimal else { return nil }
        return withBytes(entry.byteRange, body)
    }
}

extension Array where Element: PropertyValue {
    /// An array of arrays reads as its inner element type reads arrays of itself.
    static func convertElements<Outer>(of input: JSONInput, as elementType: Outer.Type, context: inout ConversionContext)
        -> [Outer]
    {
        Element.convertArrays(of: input, as: elementType, context: &context)
    }
}

extension Int: ScalarPropertyValue {}
extension Int8: ScalarPropertyValue {}
extension Int16: ScalarPropertyValue {}
extension Int32: ScalarPropertyValue {}
extension Int64: ScalarPropertyValue {}
extension UInt: ScalarPropertyValue {}
extension UInt8: ScalarPropertyValue {}
extension UInt16: ScalarPropertyValue {}
extension UInt32: ScalarPropertyValue {}
extension UInt64: ScalarPropertyValue {}
extension Double: ScalarPropertyValue {}
extension Float: ScalarPropertyValue {}
extension Decimal: ScalarPropertyValue {}
extension Bool: ScalarPropertyValue {}
extension String: ScalarPropertyValue {}
extension URL: ScalarPropertyValue {}
extension UUID: ScalarPropertyValue {}
extension Data: ScalarPropertyValue {}
extension Date: ScalarPropertyValue {}
extension JSONValue: ScalarPropertyValue {}
