/// How much of a model its descriptions show.
///
/// The defaults keep a log line short and a full description readable:
///
/// ```swift
/// print(user)                                   // one line, at most 500 characters
/// print(user.jsonModel.fullDescription)                   // every property, 100 items per array
/// var limits = DescriptionLimits.default
/// limits.maxItems = 10
/// print(user.jsonModel.fullDescription(limits: limits))
/// ```
public struct DescriptionLimits: Sendable, Hashable {
    /// The longest string `description` shows, in characters; longer ones end in `…` inside the
    /// quotes. One character may be built of any number of Unicode scalars (a letter with a
    /// thousand accents): a string also ends at eight times this many scalars, so that no
    /// string makes a line of any length.
    public var maxStringLength: Int { didSet { maxStringLength = max(1, maxStringLength) } }
    /// The longest `description` (and `debugDescription`), in characters: the line stops at
    /// the last property that fits and counts the ones left out (`… 12 more)`).
    public var maxLineLength: Int { didSet { maxLineLength = max(16, maxLineLength) } }
    /// How many models deep `description` shows nested models; deeper ones read `Address(…)`.
    /// At most 32; a larger value counts as that.
    public var maxLineNesting: Int { didSet { maxLineNesting = max(1, maxLineNesting) } }
    /// The longest string `fullDescription` shows, in characters (and eight times as many
    /// Unicode scalars, as for ``maxStringLength``).
    public var maxFullStringLength: Int { didSet { maxFullStringLength = max(1, maxFullStringLength) } }
    /// How many array elements or dictionary entries `fullDescription` shows; the rest are counted (`… 9,900 more`).
    public var maxItems: Int { didSet { maxItems = max(0, maxItems) } }
    /// How many levels (models, arrays, dictionaries) `fullDescription` opens; deeper values are
    /// summarized on one line (`Node(…)`, `[3 items]`). At most 32; a larger value
    /// counts as that.
    public var maxDepth: Int { didSet { maxDepth = max(1, maxDepth) } }

    /// Creates limits; every argument defaults to the value of ``default``.
    ///
    /// A value below a limit's least (1 character or level, 16 characters for a line, 0 items),
    /// here or set later, counts as that least.
    public init(
        maxStringLength: Int = 80, maxLineLength: Int = 500, maxLineNesting: Int = 3,
        maxFullStringLength: Int = 1_000, maxItems: Int = 100, maxDepth: Int = 12
    ) {
        self.maxStringLength = max(1, maxStringLength)
        self.maxLineLength = max(16, maxLineLength)
        self.maxLineNesting = max(1, maxLineNesting)
        self.maxFullStringLength = max(1, maxFullStringLength)
        self.maxItems = max(0, maxItems)
        self.maxDepth = max(1, maxDepth)
    }

    /// Strings of 80 characters, lines of 500, nested models 3 deep in one line;
    /// 1,000-character strings, 100 items and 12 levels in a full description.
    public static let `default` = DescriptionLimits()

    /// The deepest ``maxDepth`` and ``maxLineNesting`` that apply: 32.
    ///
    /// Descriptions are written recursively, up to 3 KiB of stack per level in a debug build, so
    /// the nesting they open is bounded whatever the limits say: 32 levels stay well inside a
    /// 512 KiB thread.
    static let deepestNesting = 32

    /// These limits with the nesting ones brought down to 32.
    var bounded: DescriptionLimits {
        var limits = self
        limits.maxDepth = min(maxDepth, Self.deepestNesting)
        limits.maxLineNesting = min(maxLineNesting, Self.deepestNesting)
        return limits
    }
}
