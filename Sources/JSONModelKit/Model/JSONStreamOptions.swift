import JSONModelKitCore

// How a stream frames its elements: part of `ModelOptions`, which every creation entry point takes.

/// How the elements of a stream are laid out.
public enum JSONStreamFormat: Sendable, Hashable {
    /// One top-level JSON array; its elements are the stream's elements.
    case array
    /// JSON Lines: one value per line. Lines holding only white space are skipped, and the
    /// last line need not end with a newline. A broken line is reported at that line.
    case lines
    /// Values one after another, separated by white space or not at all (as `jq` writes them):
    /// JSON Lines too, and values printed over several lines. An element ends where its value
    /// ends, so a broken element may only be found further on.
    case values
    /// A top-level array when the first byte other than white space is `[`, ``values``
    /// otherwise. Empty input is then an empty stream. A file whose name ends in `.jsonl` or
    /// `.ndjson` is read as ``lines``, so that a broken line is reported at that line.
    case automatic
}

/// How a stream's elements are framed: ``ModelOptions/streamOptions``.
public struct JSONStreamOptions: Sendable, Hashable {
    /// How the elements are laid out; ``JSONStreamFormat/automatic`` by default.
    public var format: JSONStreamFormat
    /// The largest element accepted, in bytes; a larger one is an error
    /// (``JSONStreamError/Kind/elementTooLarge(limit:)``), so memory stays bounded. No reader
    /// looks further into an element than this, so a larger one is refused as too large
    /// whatever its bytes past the limit hold. At least 1: a smaller value, here or in
    /// ``init(format:maxElementSize:)``, counts as 1.
    public var maxElementSize: Int { didSet { maxElementSize = max(1, maxElementSize) } }
    /// Options for parsing each element: ``ModelOptions/parseOptions``. With `allowsComments`,
    /// comments inside an element are passed over when finding where it ends (a `}` or `"` in a
    /// comment ends nothing), but comments are not recognized between the elements of a stream;
    /// `allowsTrailingCommas` also allows a comma before the closing `]`.
    var parseOptions = JSONParseOptions()

    /// These options for the file at `path`: with the ``JSONStreamFormat/automatic`` format,
    /// JSON Lines for a name ending in `.jsonl` or `.ndjson` (in any case).
    func forFile(at path: String) -> JSONStreamOptions {
        guard format == .automatic else { return self }
        let name = path.lowercased()
        guard name.hasSuffix(".jsonl") || name.hasSuffix(".ndjson") else { return self }
        var options = self
        options.format = .lines
        return options
    }

    /// Creates options; the largest element is 64 MiB by default.
    public init(format: JSONStreamFormat = .automatic, maxElementSize: Int = 64 << 20) {
        self.format = format
        self.maxElementSize = max(1, maxElementSize)
    }

    /// These options, parsing each element with `parseOptions`.
    package func parsing(with parseOptions: JSONParseOptions) -> JSONStreamOptions {
        var options = self
        options.parseOptions = parseOptions
        return options
    }
}
