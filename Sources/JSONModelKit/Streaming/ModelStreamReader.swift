#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

/// Reads models one at a time from a top-level JSON array or JSON Lines, synchronously.
///
/// ```swift
/// let events = try ModelStreamReader<Event>(contentsOfFile: "events.jsonl")
/// while let event = try events.read() {
///     handle(event)
/// }
/// ```
///
/// The reader is also a `Sequence` of results, which ends after the first error:
///
/// ```swift
/// for result in try ModelStreamReader<Event>(contentsOfFile: "events.jsonl") {
///     let event = try result.get()
/// }
/// ```
///
/// Each element is parsed as a document of its own and made a model the way ``JSONModel/make(node:options:)``
/// does it, so ``JSONModel/modelClass(for:)``, embedded paths and every read rule work as on
/// any model. Memory is bounded by the largest element; see ``JSONStreamReader``.
public final class ModelStreamReader<Model: JSONModel>: Sequence, IteratorProtocol {
    private let reader: JSONStreamReader
    private let mutable: Bool
    private let parseOptions: JSONParseOptions

    init(_ reader: JSONStreamReader, mutable: Bool, parseOptions: JSONParseOptions) {
        self.reader = reader
        self.mutable = mutable
        self.parseOptions = parseOptions
    }

    /// The number of elements read so far.
    public var count: Int { reader.count }

    /// The number of input bytes consumed so far.
    public var bytesRead: Int { reader.bytesRead }

    /// The next model; nil at the end of the input.
    ///
    /// - Throws: ``JSONStreamError``: invalid JSON, a truncated input, an element over the size
    ///   limit, an element that is not an object, or a failed read. After an error the reader
    ///   returns nil.
    public func read() throws(JSONStreamError) -> Model? {
        guard let element = try reader.nextElement() else { return nil }
        do {
            return try Model.make(element, mutable: mutable, options: parseOptions)
        } catch {
            reader.end()
            throw error
        }
    }

    /// The next model or the error that ends the input; nil after the end or an error.
    public func next() -> Result<Model, JSONStreamError>? {
        do {
            guard let model = try read() else { return nil }
            return .success(model)
        } catch {
            return .failure(error)
        }
    }
}

extension JSONModel {
    /// Parses a framed element and makes a model of this class (or the subclass its JSON asks for).
    static func make(_ element: FramedElement, mutable: Bool, options: JSONParseOptions) throws(JSONStreamError) -> Self {
        let root = try JSONStreamReader.parse(element, options: options).root
        guard root.kind == .object else {
            throw JSONStreamError(
                .notAnObject(model: String(describing: self), found: root.kind), element: element.index,
                offset: element.offset, line: element.line, column: element.column)
        }
        return makeResolved(.node(root), metadata: nil, mutable: mutable)
    }
}

// MARK: - Creating readers

extension ModelStreamReader {
    /// Reads models one at a time from the file at `path`: a top-level JSON array or JSON Lines.
    ///
    /// ```swift
    /// for result in try ModelStreamReader<Event>(contentsOfFile: "export.json") {
    ///     let event = try result.get()
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - path: The file; it is closed at the end of the input or when the reader goes.
    ///   - mutable: Whether the models accept writes.
    ///   - options: The format, the largest element and the parsing options. With the
    ///     ``JSONStreamFormat/automatic`` format, a file named `.jsonl` or `.ndjson` is read as
    ///     ``JSONStreamFormat/lines``.
    /// - Throws: ``JSONStreamError/Kind/readFailed(_:)`` when the file cannot be opened.
    /// - Complexity: O(*n*) in the size of the input over the whole reading; memory in the size
    ///   of the largest element.
    public convenience init(
        contentsOfFile path: String, mutable: Bool = false, options: JSONStreamOptions = JSONStreamOptions()
    ) throws(JSONStreamError) {
        self.init(
            try JSONStreamReader(contentsOfFile: path, options: options), mutable: mutable,
            parseOptions: options.parseOptions)
    }

    /// Reads models one at a time from the file at `url`; see ``init(contentsOfFile:mutable:options:)``.
    public convenience init(
        contentsOf url: URL, mutable: Bool = false, options: JSONStreamOptions = JSONStreamOptions()
    ) throws(JSONStreamError) {
        try self.init(contentsOfFile: url.path, mutable: mutable, options: options)
    }

    /// Reads models one at a time from an open file, pipe or standard input (descriptor 0), to
    /// its end. The descriptor is not closed. (`JSONModelKitFoundation` adds `init(fileHandle:)`.)
    public convenience init(
        fileDescriptor: Int32, mutable: Bool = false, options: JSONStreamOptions = JSONStreamOptions()
    ) {
        self.init(fileDescriptor: fileDescriptor, owner: nil, mutable: mutable, options: options)
    }

    /// ``init(fileDescriptor:mutable:options:)``, keeping `owner` (what closes the descriptor)
    /// alive while it is read.
    package convenience init(fileDescriptor: Int32, owner: AnyObject?, mutable: Bool, options: JSONStreamOptions) {
        self.init(
            JSONStreamReader(fileDescriptor: fileDescriptor, owner: owner, options: options), mutable: mutable,
            parseOptions: options.parseOptions)
    }

    /// Reads models one at a time from bytes in memory: a JSON array or JSON Lines.
    ///
    /// Unlike `Model.array(from:)`, which keeps one document for every element, each model
    /// here has a small document of its own, and JSON Lines are read too.
    public convenience init(
        bytes: [UInt8], mutable: Bool = false, options: JSONStreamOptions = JSONStreamOptions()
    ) {
        self.init(JSONStreamReader(bytes: bytes, options: options), mutable: mutable, parseOptions: options.parseOptions)
    }
}
