import JSONModelKitCore

/// How a model, or a lazy collection of models, is created from JSON: whether it accepts
/// writes, whether every value is checked at once, and how JSON text is parsed.
///
/// Every creation form takes the same value, so code that creates models (a registry, a tool,
/// a network layer) passes one choice along whatever the input is, as a configured
/// `JSONDecoder` is passed around:
///
/// ```swift
/// let user = try User(json: data)                              // lazy and immutable
/// let draft = try User(json: data, options: .mutable)          // accepts writes
/// let checked = try User(json: data, options: .validating)     // throws on any bad value
/// let exact = try User(json: data, options: .strict)           // and on "31" for an Int
/// let lenient = ModelOptions(mutable: true, parseOptions: JSONParseOptions(allowsComments: true))
/// ```
///
/// The defaults keep creation cheap: nothing is converted until it is read, a value that does
/// not convert gives a default and a diagnostic rather than failing the whole document, and an
/// immutable model can be read from any thread without locking.
public struct ModelOptions: Sendable, Hashable {
    /// Whether the model (or each element of a collection) accepts writes; `false` by default.
    ///
    /// Writes to an immutable model throw ``JSONModelError/immutable(model:property:)`` through
    /// ``JSONModelView/set(_:forProperty:)``; `mutableCopy()` and `mutate(_:)` work on either.
    public var mutable: Bool

    /// Whether every property, nested models and collection elements included, is converted at
    /// creation; `false` by default.
    ///
    /// When any value does not convert cleanly, creation throws
    /// ``JSONModelError/validationFailed(_:)`` listing every diagnostic with its path, as
    /// ``JSONModelView/validate(strict:)`` does. It costs a full conversion up front, so use it where bad
    /// input should be refused at the door rather than read as defaults.
    public var validating: Bool

    /// Whether validation at creation is strict; `false` by default. Setting it validates at
    /// creation, as ``validating-property`` does.
    ///
    /// Strict validation holds the JSON to the declared types the way `Codable` does: a number
    /// where a `String` is declared, a numeric string for a number, `"yes"` or `1` for a `Bool`,
    /// and a missing or `null` value of a non-optional property without a declared default are
    /// problems, where lenient validation (and every read) converts them or reads the default.
    /// Keys no property reads are not problems. See ``JSONModelView/validate(strict:)``.
    public var strict: Bool

    /// How JSON text is scanned: depth limit and leniency; strict RFC 8259 by default.
    ///
    /// Used only by the forms that parse (`Data`, `String`, `[UInt8]`, `URL`); a ``JSONValue``
    /// or ``JSONNode`` is already parsed, and these options do not apply to it.
    public var parseOptions: JSONParseOptions

    /// How a stream's elements are laid out and how large one may be.
    ///
    /// Used only by streams (``JSONModelProtocol/stream(from:options:)``, ``ModelStreamReader``).
    public var streamOptions: JSONStreamOptions

    /// Creates options; the defaults give a lazy, immutable model from strict JSON.
    ///
    /// - Parameters:
    ///   - mutable: Whether the model accepts writes.
    ///   - validating: Whether every value is converted, and checked, at creation.
    ///   - strict: Whether that check is strict (and made even without `validating`).
    ///   - parseOptions: How JSON text is scanned.
    ///   - streamOptions: How a stream's elements are framed.
    public init(
        mutable: Bool = false, validating: Bool = false, strict: Bool = false,
        parseOptions: JSONParseOptions = JSONParseOptions(), streamOptions: JSONStreamOptions = JSONStreamOptions()
    ) {
        self.mutable = mutable
        self.validating = validating
        self.strict = strict
        self.parseOptions = parseOptions
        self.streamOptions = streamOptions
    }

    /// A model that accepts writes, otherwise the defaults.
    public static var mutable: ModelOptions { ModelOptions(mutable: true) }

    /// A model whose every value is converted and checked at creation, otherwise the defaults.
    public static var validating: ModelOptions { ModelOptions(validating: true) }

    /// A model whose every value is converted and checked strictly at creation, otherwise the defaults.
    public static var strict: ModelOptions { ModelOptions(validating: true, strict: true) }

    /// Whether creation converts and checks every value.
    var validatesAtCreation: Bool { validating || strict }

    /// How a stream frames its elements, parsing each with ``parseOptions``.
    var framing: JSONStreamOptions { streamOptions.parsing(with: parseOptions) }
}
