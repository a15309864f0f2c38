#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

/// Reads models one at a time from a top-level JSON array or JSON Lines, synchronously.
///
/// ```swift
/// let events = try ModelStreamReader<Event>(contentsOf: URL(fileURLWithPath: "events.jsonl"))
/// while let event = try events.read() {
///     handle(event)
/// }
/// ```
///
/// The reader is also a `Sequence` of results, which ends after the first error:
///
/// ```swift
/// for result in try ModelStreamReader<Event>(contentsOf: url, options: .validating) {
///     let event = try result.get()
/// }
/// ```
///
/// Each element is parsed as a document of its own and made a model the way
/// ``JSONModel/make(json:options:)`` does it, so ``JSONModel/modelClass(for:)``, embedded paths
/// and every read rule work as on any model. Memory is bounded by the largest element, not by
/// the input: the reader holds one chunk of the input and the element in progress.
public final class ModelStreamReader<Model: JSONModel>: Sequence, IteratorProtocol {
    private let reader: JSONStreamReader
    private let options: ModelOptions

    init(_ reader: JSONStreamReader, options: ModelOptions) {
        self.reader = reader
        self.options = options
    }

    /// The number of elements read so far.
    package var count: Int { reader.count }

    /// The number of input bytes consumed so far.
    package var bytesRead: Int { reader.bytesRead }

    /// The next model; nil at the end of the input.
    ///
    /// - Throws: ``JSONStreamError``: invalid JSON, a truncated input, an element over the size
    ///   limit, an element that is not an object, a failed read, or with
    ///   ``ModelOptions/validating-property``, a model that does not validate. After an error the reader
    ///   returns nil.
    public func read() throws(JSONStreamError) -> Model? {
        guard var element = try reader.nextElement() else { return nil }
        do throws(JSONStreamError) {
            let document = try reader.takeDocument(of: &element)
            do throws(ElementFailure) {
                return try Model.make(consume document, options: options)
            } catch {
                throw reader.error(error.kind, of: element)
            }
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
    /// Makes a model of this class (or the subclass its JSON asks for) of a framed element's
    /// document, validated when `options` asks; an error for the caller to place at
    /// the element's start (``ElementFramer/error(_:of:in:)``).
    ///
    /// The document is handed to the model, not copied: a copy cost a retain and a release per
    /// element, atomic operations both, and so did a closure for the position, which held the
    /// reader. PERF: jsonmodel-bench --section stream, row (a).
    static func make(_ document: consuming JSONDocument, options: ModelOptions) throws(ElementFailure) -> Self {
        // The root's tag, not its node's kind: a node made before the model, and read, cost a
        // retain and a release of the document.
        guard document.entry(0).tag == .object else {
            throw ElementFailure(kind: .notAnObject(model: String(describing: self), found: document.root.kind))
        }
        let model = makeResolved(.node(JSONNode(document: consume document, index: 0)), metadata: nil, mutable: options.mutable)
        guard options.validatesAtCreation else { return model }
        do {
            try model.jsonModel.validate(strict: options.strict)
        } catch {
            throw ElementFailure(kind: .validationFailed(error))
        }
        return model
    }
}

/// What is wrong with the model of a framed element, for the caller to place at the element's
/// start.
struct ElementFailure: Error {
    let kind: JSONStreamError.Kind
}

// MARK: - Creating readers

extension ModelStreamReader {
    /// Reads models one at a time from the file at `url`: a top-level JSON array, JSON Lines,
    /// or values one after another.
    ///
    /// ```swift
    /// let lines = ModelOptions(streamOptions: JSONStreamOptions(format: .lines))
    /// for result in try ModelStreamReader<Event>(contentsOf: url, options: lines) {
    ///     let event = try result.get()
    /// }
    /// ```
    ///
    /// Standard input is `URL(fileURLWithPath: "/dev/stdin")`.
    ///
    /// - Parameters:
    ///   - url: The file; it is closed at the end of the input or when the reader goes.
    ///   - options: Mutability, validation and parsing of each model, and the stream's format and
    ///     largest element (``ModelOptions/streamOptions``). With the
    ///     ``JSONStreamFormat/automatic`` format, a file named `.jsonl` or `.ndjson` is read as
    ///     ``JSONStreamFormat/lines``.
    /// - Throws: ``JSONStreamError/Kind/readFailed(_:)`` when the file cannot be opened.
    /// - Complexity: O(*n*) in the size of the input over the whole reading; memory in the size
    ///   of the largest element.
    public convenience init(contentsOf url: URL, options: ModelOptions = ModelOptions()) throws(JSONStreamError) {
        self.init(try JSONStreamReader(contentsOfFile: url.path, options: options.framing), options: options)
    }

    /// Reads models one at a time from bytes in memory: a JSON array, JSON Lines, or values one
    /// after another; see ``init(contentsOf:options:)``.
    ///
    /// Unlike ``JSONModelProtocol/array(from:options:)``, which keeps one document for every
    /// element, each model here has a small document of its own, and JSON Lines are read too.
    public convenience init(bytes: [UInt8], options: ModelOptions = ModelOptions()) {
        self.init(JSONStreamReader(bytes: bytes, options: options.framing), options: options)
    }

    /// Reads models from an open descriptor, to its end, keeping `owner` (what closes the
    /// descriptor) alive; the descriptor is not closed.
    package convenience init(fileDescriptor: Int32, owner: AnyObject? = nil, options: ModelOptions = ModelOptions()) {
        self.init(JSONStreamReader(fileDescriptor: fileDescriptor, owner: owner, options: options.framing), options: options)
    }
}
