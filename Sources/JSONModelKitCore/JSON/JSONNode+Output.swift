#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension JSONNode: JSONWritable {
    /// The value as an owned ``JSONValue``.
    ///
    /// Objects keep their members in document order, duplicate keys included, and numbers keep
    /// their exact text. Built without recursion, so any depth the document holds is fine.
    ///
    /// - Complexity: O(*n*) in the size of the value.
    public var value: JSONValue {
        /// A container being built; `key` is set between an object's key and its value.
        struct Frame {
            var elements = JSONArray()
            var object: JSONObject? = nil
            var key: String? = nil
            let end: Int
        }
        let document = document
        var stack: [Frame] = []
        var position = index
        while true {
            let entry = document.entry(position)
            var completed: JSONValue
            if var top = stack.last, top.object != nil, top.key == nil {
                // Inside an object, a key comes before each value, in its own entry or in the value's.
                top.key = document.string(of: document.memberKey(at: position)) ?? ""
                stack[stack.count - 1] = top
                position = document.memberValue(at: position)
                continue
            }
            switch entry.tag {
            case .array, .object:
                var frame = Frame(end: entry.containerEnd)
                if entry.tag == .object {
                    frame.object = JSONObject(minimumCapacity: entry.containerCount)
                } else {
                    frame.elements.buffer.reserveCapacity(entry.containerCount)
                }
                position += 1
                if position < frame.end {
                    stack.append(frame)
                    continue
                }
                completed = entry.tag == .object ? .object(JSONObject()) : .array([])
            default:
                completed = JSONNode(document: document, index: position).scalarValue
                position += 1
            }
            // Hand the completed value to its parent; close every parent that ends here.
            while !stack.isEmpty {
                var top = stack.removeLast()
                if top.object != nil {
                    top.object!.append(key: top.key ?? "", value: completed)
                    top.key = nil
                } else {
                    top.elements.buffer.append(completed)
                }
                guard position == top.end else {
                    stack.append(top)
                    break
                }
                completed = top.object.map { .object($0) } ?? .array(top.elements)
            }
            if stack.isEmpty { return completed }
        }
    }

    /// The value of a scalar entry (containers give null).
    var scalarValue: JSONValue {
        switch entry.tag {
        case .null: .null
        case .false: .bool(false)
        case .true: .bool(true)
        case .integer, .decimal: numberValue.map { .number($0) } ?? .null
        case .string, .escapedString: .string(stringValue ?? "")
        case .array, .object: .null
        }
    }

    /// The value written as JSON text, straight from the document.
    ///
    /// Strings and numbers are copied as they stand in the input, escapes and digits included,
    /// so untouched values round-trip byte for byte; only white space changes. With
    /// `.sortedKeys`, members are ordered by the UTF-8 bytes of their keys, duplicates keeping
    /// their document order.
    ///
    /// - Complexity: O(*n*) in the size of the value, plus sorting with `.sortedKeys`.
    public func jsonString(options: JSONWriteOptions = []) -> String { writtenString(options: options) }

    /// The value written as JSON `Data`; see ``jsonString(options:)``.
    package func jsonData(options: JSONWriteOptions = []) -> Data { writtenData(options: options) }

    /// The value written as JSON bytes; see ``jsonString(options:)``.
    package func jsonBytes(options: JSONWriteOptions = []) -> [UInt8] { writtenBytes(options: options) }

    /// Writes this value through `writer` without recursion.
    func write(to writer: inout JSONWriter) {
        /// An open container: the tape positions still to write (for objects, where members start).
        struct Frame {
            var pending: [Int]
            var next = 0
            let isObject: Bool
        }
        let document = document
        let sortsKeys = writer.options.contains(.sortedKeys)
        var stack: [Frame] = []
        var position = index
        document.storage.withUnsafeBufferPointer { bytes in
            func raw(_ range: ByteRange) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: bytes[range.offset..<range.upperBound])
            }
            while true {
                let entry = document.entry(position)
                switch entry.tag {
                case .null: writer.writeNull()
                case .false: writer.writeBool(false)
                case .true: writer.writeBool(true)
                case .integer, .decimal: writer.writeNumberText(raw(entry.byteRange))
                case .string, .escapedString: writer.writeEscapedString(raw(entry.byteRange))
                case .array:
                    writer.beginArray()
                    stack.append(Frame(pending: childPositions(of: position, objectKeys: false), isObject: false))
                case .object:
                    writer.beginObject()
                    var keys = childPositions(of: position, objectKeys: true)
                    if sortsKeys {
                        let decoded = keys.map { document.string(of: document.memberKey(at: $0)) ?? "" }
                        let order = decoded.indices.sorted {
                            decoded[$0].utf8.lexicographicallyPrecedes(decoded[$1].utf8)
                                || (decoded[$0] == decoded[$1] && $0 < $1)
                        }
                        keys = order.map { keys[$0] }
                    }
                    stack.append(Frame(pending: keys, isObject: true))
                }
                // Find the next value to write, closing finished containers on the way.
                while let top = stack.last, top.next == top.pending.count {
                    stack.removeLast()
                    if top.isObject { writer.endObject() } else { writer.endArray() }
                }
                guard !stack.isEmpty else { return }
                let top = stack.count - 1
                let next = stack[top].pending[stack[top].next]
                stack[top].next += 1
                if stack[top].isObject {
                    writer.writeEscapedKey(raw(document.memberKey(at: next).byteRange))
                    position = document.memberValue(at: next)
                } else {
                    position = next
                }
            }
        }

        func childPositions(of container: Int, objectKeys: Bool) -> [Int] {
            var positions: [Int] = []
            positions.reserveCapacity(document.entry(container).containerCount)
            var child = container + 1
            let end = document.entry(container).containerEnd
            while child < end {
                positions.append(child)
                child = objectKeys ? document.nextMember(after: child) : document.next(after: child)
            }
            return positions
        }
    }
}
