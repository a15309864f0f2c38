#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Options for writing JSON text.
///
/// ```swift
/// let value: JSONValue = ["b": 1, "a": [true, nil]]
/// value.jsonString(options: [.prettyPrinted, .sortedKeys])
/// // {
/// //   "a": [
/// //     true,
/// //     null
/// //   ],
/// //   "b": 1
/// // }
/// ```
public struct JSONWriteOptions: OptionSet, Sendable, Hashable {
    /// The options as bits.
    public let rawValue: Int

    /// Creates options from bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Writes each array element and object member on its own line, indented
    /// by two spaces per level, with `": "` between keys and values. Empty
    /// containers stay `[]` and `{}`.
    public static let prettyPrinted = JSONWriteOptions(rawValue: 1 << 0)

    /// Writes object members ordered by the UTF-8 bytes of their keys.
    ///
    /// The sort is stable: members with the same key (duplicates) keep their
    /// relative order.
    public static let sortedKeys = JSONWriteOptions(rawValue: 1 << 1)
}

/// A streaming JSON writer driven by events.
///
/// The writer tracks nesting with its own small stack and inserts commas,
/// colons, newlines and indentation itself; callers only announce values,
/// keys and container boundaries:
///
/// ```swift
/// var writer = JSONWriter(options: [])
/// writer.beginObject()
/// writer.writeKey("a")
/// writer.beginArray()
/// writer.writeBool(true)
/// writer.writeNull()
/// writer.endArray()
/// writer.endObject()
/// // writer.bytes is {"a":[true,null]}
/// ```
///
/// The writer does not reorder members. Callers that honour
/// ``JSONWriteOptions/sortedKeys`` emit members in the order given by
/// ``keyPrecedes(_:_:)``.
struct JSONWriter {
    /// One open container.
    private struct Level {
        var isObject: Bool
        var isEmpty: Bool
    }

    /// The options in effect.
    let options: JSONWriteOptions

    /// The output so far.
    var bytes: [UInt8]

    private let isPretty: Bool
    private var levels: [Level] = []
    /// Whether a key has just been written, so the next value follows it directly.
    private var afterKey = false

    /// Creates a writer with an empty output buffer.
    ///
    /// - Parameters:
    ///   - options: How to format the output.
    ///   - reservingCapacity: Bytes to reserve in the output buffer up front.
    init(options: JSONWriteOptions, reservingCapacity capacity: Int = 256) {
        self.options = options
        self.isPretty = options.contains(.prettyPrinted)
        self.bytes = []
        self.bytes.reserveCapacity(capacity)
    }

    /// The sorted-keys order: byte-wise comparison of the keys' UTF-8.
    static func keyPrecedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    // MARK: Layout

    private mutating func newlineAndIndent(depth: Int) {
        bytes.append(UInt8(ascii: "\n"))
        var remaining = depth
        while remaining > 0 {
            bytes.append(UInt8(ascii: " "))
            bytes.append(UInt8(ascii: " "))
            remaining -= 1
        }
    }

    /// Writes the separator and indentation that precede a value or key.
    private mutating func prepareForItem() {
        if afterKey {
            afterKey = false
            return
        }
        guard let last = levels.indices.last else { return }
        if !levels[last].isEmpty {
            bytes.append(UInt8(ascii: ","))
        }
        levels[last].isEmpty = false
        if isPretty {
            newlineAndIndent(depth: levels.count)
        }
    }

    // MARK: Scalars

    /// Writes `null`.
    mutating func writeNull() {
        prepareForItem()
        bytes.append(contentsOf: [UInt8(ascii: "n"), UInt8(ascii: "u"), UInt8(ascii: "l"), UInt8(ascii: "l")])
    }

    /// Writes `true` or `false`.
    mutating func writeBool(_ value: Bool) {
        prepareForItem()
        if value {
            bytes.append(contentsOf: [UInt8(ascii: "t"), UInt8(ascii: "r"), UInt8(ascii: "u"), UInt8(ascii: "e")])
        } else {
            bytes.append(contentsOf: [
                UInt8(ascii: "f"), UInt8(ascii: "a"), UInt8(ascii: "l"), UInt8(ascii: "s"), UInt8(ascii: "e"),
            ])
        }
    }

    /// Writes a number's exact text.
    mutating func writeNumber(_ number: JSONNumber) {
        prepareForItem()
        bytes.append(contentsOf: number.text.utf8)
    }

    /// Writes number text as is; the caller guarantees it is valid.
    mutating func writeNumberText(_ text: UnsafeBufferPointer<UInt8>) {
        prepareForItem()
        bytes.append(contentsOf: text)
    }

    /// Writes a string, quoted and escaped.
    mutating func writeString(_ string: String) {
        prepareForItem()
        appendQuoted(string)
    }

    /// Writes string content that is already valid JSON string content
    /// (escapes kept as written), adding only the quotes.
    mutating func writeEscapedString(_ body: UnsafeBufferPointer<UInt8>) {
        prepareForItem()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: body)
        bytes.append(UInt8(ascii: "\""))
    }

    // MARK: Keys

    /// Writes an object key, quoted and escaped, and the colon after it.
    mutating func writeKey(_ key: String) {
        prepareForItem()
        appendQuoted(key)
        appendColon()
    }

    /// Writes an object key from already escaped content, and the colon after it.
    mutating func writeEscapedKey(_ body: UnsafeBufferPointer<UInt8>) {
        prepareForItem()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: body)
        bytes.append(UInt8(ascii: "\""))
        appendColon()
    }

    private mutating func appendColon() {
        bytes.append(UInt8(ascii: ":"))
        if isPretty { bytes.append(UInt8(ascii: " ")) }
        afterKey = true
    }

    // MARK: Containers

    /// Opens an array.
    mutating func beginArray() {
        prepareForItem()
        bytes.append(UInt8(ascii: "["))
        levels.append(Level(isObject: false, isEmpty: true))
    }

    /// Closes the innermost array.
    mutating func endArray() {
        close(UInt8(ascii: "]"))
    }

    /// Opens an object.
    mutating func beginObject() {
        prepareForItem()
        bytes.append(UInt8(ascii: "{"))
        levels.append(Level(isObject: true, isEmpty: true))
    }

    /// Closes the innermost object.
    mutating func endObject() {
        close(UInt8(ascii: "}"))
    }

    private mutating func close(_ bracket: UInt8) {
        assert(!levels.isEmpty, "JSONWriter: end of a container that was not begun")
        let level = levels.removeLast()
        assert(level.isObject == (bracket == UInt8(ascii: "}")), "JSONWriter: mismatched container end")
        if isPretty && !level.isEmpty {
            newlineAndIndent(depth: levels.count)
        }
        bytes.append(bracket)
    }

    // MARK: Escaping

    private mutating func appendQuoted(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        if let done: Void = string.utf8.withContiguousStorageIfAvailable({ appendEscaped($0) }) {
            _ = done
        } else {
            let copy = Array(string.utf8)
            copy.withUnsafeBufferPointer { appendEscaped($0) }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends UTF-8 string content with JSON escapes, copying runs of bytes
    /// that need no escaping in one go.
    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        let hexDigits: StaticString = "0123456789abcdef"
        var runStart = 0
        var i = 0
        let n = utf8.count
        while i < n {
            let byte = utf8[i]
            if byte >= 0x20 && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                i += 1
                continue
            }
            if runStart < i {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
            }
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\""))
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\"))
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            default:
                bytes.append(UInt8(ascii: "u"))
                bytes.append(UInt8(ascii: "0"))
                bytes.append(UInt8(ascii: "0"))
                hexDigits.withUTF8Buffer { hex in
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 0x0F)])
                }
            }
            i += 1
            runStart = i
        }
        if runStart < n {
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<n]))
        }
    }
}

// MARK: - Writing values

/// A value that writes itself through a ``JSONWriter``: ``JSONValue`` and ``JSONNode``.
///
/// Their `jsonString`, `jsonData` and (for the package) `jsonBytes` are documented on each type and call
/// the one implementation here.
protocol JSONWritable {
    /// Sends the value to `writer` as events.
    func write(to writer: inout JSONWriter)
}

extension JSONWritable {
    /// The value as UTF-8 JSON text.
    func writtenBytes(options: JSONWriteOptions) -> [UInt8] {
        var writer = JSONWriter(options: options)
        write(to: &writer)
        return writer.bytes
    }

    func writtenString(options: JSONWriteOptions) -> String {
        String(decoding: writtenBytes(options: options), as: UTF8.self)
    }

    func writtenData(options: JSONWriteOptions) -> Data {
        Data(writtenBytes(options: options))
    }
}

extension JSONValue: JSONWritable {}

extension JSONValue {
    /// Writes the value as JSON text.
    ///
    /// Numbers are written with their exact text, strings escaped (`\"`,
    /// `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, other control characters as
    /// `\u00XX`; `/` and non-ASCII as is). Object members are written in order,
    /// duplicate keys included, unless ``JSONWriteOptions/sortedKeys`` is given.
    ///
    /// ```swift
    /// let value: JSONValue = ["name": "Ann", "tags": []]
    /// value.jsonString()   // {"name":"Ann","tags":[]}
    /// ```
    ///
    /// - Parameter options: Formatting options; compact and in member order
    ///   by default.
    /// - Returns: The JSON text.
    /// - Complexity: O(*n*) for *n* nested values (O(*n* log *n*) with sorted
    ///   keys). Uses an explicit stack, not recursion, so any depth works.
    public func jsonString(options: JSONWriteOptions = []) -> String { writtenString(options: options) }

    /// Writes the value as UTF-8 JSON data.
    ///
    /// - Parameter options: Formatting options; compact and in member order
    ///   by default.
    /// - Returns: The JSON text as UTF-8 data.
    /// - Complexity: O(*n*) for *n* nested values; see ``jsonString(options:)``.
    package func jsonData(options: JSONWriteOptions = []) -> Data { writtenData(options: options) }

    /// Writes the value as UTF-8 JSON bytes; see ``jsonString(options:)``.
    package func jsonBytes(options: JSONWriteOptions = []) -> [UInt8] { writtenBytes(options: options) }

    /// Sends this value to a writer as events, using an explicit stack.
    func write(to writer: inout JSONWriter) {
        /// An open container, read through pointers into its storage: `self` holds every nested
        /// container, and storage that is shared is never changed, so they stay valid. Nothing
        /// in a frame is reference counted, so taking it off the stack and back costs a copy of
        /// its bytes (a frame holding the containers would be copied with their retains, per
        /// element).
        ///
        /// PERF: writing a value tree; see jsonmodel-bench --section write, the tree row.
        struct Frame {
            var elements: UnsafeMutablePointer<JSONValue>? = nil
            var members: UnsafeMutablePointer<JSONObject.Element>? = nil
            var count = 0
            /// The index in `orders` of the sorted member positions, or -1 for member order.
            var order = -1
            var isObject: Bool
            var next = 0
        }
        var orders: [[Int]] = []
        let sortsKeys = writer.options.contains(.sortedKeys)
        var stack: [Frame] = []
        var current = self
        while true {
            switch current {
            case .null:
                writer.writeNull()
            case .bool(let b):
                writer.writeBool(b)
            case .number(let n):
                writer.writeNumber(n)
            case .string(let s):
                writer.writeString(s)
            case .array(let elements):
                writer.beginArray()
                stack.append(Frame(elements: elements.buffer.elementsAddress, count: elements.count, isObject: false))
            case .object(let object):
                writer.beginObject()
                let members = object.members
                var order = -1
                if sortsKeys && members.count > 1 {
                    // Array.sort is not stable; break ties by position.
                    order = orders.count
                    orders.append(members.indices.sorted { a, b in
                        if members[a].key.isSameJSONKey(as: members[b].key) { return a < b }
                        return JSONWriter.keyPrecedes(members[a].key, members[b].key)
                    })
                }
                stack.append(Frame(members: members.buffer.elementsAddress, count: members.count, order: order, isObject: true))
            }
            // Find the next value to write, closing finished containers. The frame on top is
            // taken off while it is read (accessed in place in the array, it would be copied whole).
            while true {
                guard var frame = stack.popLast() else { return }
                let next = frame.next
                if next < frame.count {
                    frame.next = next + 1
                    if frame.isObject {
                        let member = frame.members.unsafelyUnwrapped[frame.order < 0 ? next : orders[frame.order][next]]
                        writer.writeKey(member.key)
                        current = member.value
                    } else {
                        current = frame.elements.unsafelyUnwrapped[next]
                    }
                    stack.append(frame)
                    break
                }
                if frame.isObject {
                    writer.endObject()
                    if frame.order >= 0 { orders.removeLast() }
                } else {
                    writer.endArray()
                }
            }
        }
    }
}
