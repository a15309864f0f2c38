#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

/// What a conversion needs to know besides the value: where it is, and where
/// its diagnostics and any child models go.
struct ConversionContext {
    /// The model class being read, for diagnostics.
    let modelName: String
    /// The declared property being read.
    let property: String
    /// The path of the value being converted, relative to the model's object.
    var segments: [JSONPath.Segment]
    /// Diagnostics recorded so far.
    var diagnostics: [ModelDiagnostic] = []
    /// Whether nested models are created mutable.
    let mutable: Bool
    /// For a mutable model, the model itself, so nested models write through to it.
    let owner: JSONModel?
    /// The ordinal of the property being read in `owner`.
    let ordinal: Int
    /// Whether nested models are collected for validation as they are created (``JSONModelView/validate(strict:)``).
    var validating = false
    /// While validating: the nested models created, with their paths relative to the model's
    /// object, for ``JSONModel/validationDiagnostics()`` to visit after this conversion.
    var nestedModels: [(model: JSONModel, path: JSONPath)] = []
    /// The metadata of the schema model the property's type refers to, if it refers to one.
    var schemaModel: ModelMetadata?
    /// For a relationship property (`inverse:`): the parent its child models refer back to.
    var inverse: InverseLink?
    /// For a property with `embedPath`: where each array element holds the model's object.
    var embedPath: JSONPath?
    /// Whether the JSON converted is a declared default, which the owner does not hold: the
    /// elements of a collection made from it are linked without checking that the owner holds
    /// them (`ElementConfiguration`), so that their writes create it.
    var readingDefault = false
    /// Whether `Double` and `Float` read `"NaN"`, `"Infinity"` and `"-Infinity"`
    /// (``ModelMetadata/allowsNonFiniteNumbers``).
    var allowsNonFiniteNumbers = false
    /// Whether this is a strict validation (``JSONModelView/validate(strict:)``): conversions that
    /// succeed only leniently, and missing or null non-optionals, are problems too.
    var strict = false
    /// The positions in ``diagnostics`` of those only strict validation records: they fail the
    /// validation but are not kept in the model, whose reads stay lenient.
    var strictPositions: [Int] = []

    init(
        modelName: String, property: String, segments: [JSONPath.Segment], mutable: Bool, owner: JSONModel?,
        ordinal: Int, validating: Bool = false
    ) {
        self.modelName = modelName
        self.property = property
        self.segments = segments
        self.mutable = mutable
        self.owner = owner
        self.ordinal = ordinal
        self.validating = validating
    }

    var path: JSONPath { JSONPath(segments) }

    mutating func record(_ kind: ModelDiagnostic.Kind, _ message: String) {
        diagnostics.append(
            ModelDiagnostic(kind: kind, path: path, property: property, model: modelName, message: message))
    }

    mutating func typeMismatch(_ input: JSONInput, expected: String) {
        record(.typeMismatch, "expected \(expected), found \(input.summary)")
    }

    /// Under strict validation, records that `input` converted to `expected` only leniently;
    /// does nothing otherwise. Called only where a lenient conversion happens, so lenient reads
    /// pay nothing for it.
    @inline(__always)
    mutating func lenientConversion(_ input: JSONInput, expected: String) {
        guard strict else { return }
        strictPositions.append(diagnostics.count)
        record(.typeMismatch, "expected \(expected), found \(input.summary) (converted only when not strict)")
    }

    /// Records a problem only strict validation finds (see ``strictPositions``).
    mutating func recordStrict(_ kind: ModelDiagnostic.Kind, _ message: String) {
        strictPositions.append(diagnostics.count)
        record(kind, message)
    }

    /// The diagnostics a model keeps: all but those only strict validation records.
    var lenientDiagnostics: [ModelDiagnostic] {
        guard !strictPositions.isEmpty else { return diagnostics }
        let strict = Set(strictPositions)
        return diagnostics.enumerated().filter { !strict.contains($0.offset) }.map(\.element)
    }
}
