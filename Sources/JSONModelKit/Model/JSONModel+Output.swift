#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

/// Choices for a model's JSON output.
///
/// By default the output is the model's current JSON object, unknown keys included.
public struct JSONOutputOptions: OptionSet, Sendable, Hashable {
    public let rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Writes `null` for every declared property that has no value.
    ///
    /// `null` whatever the property's type: a missing `[String]` is written `null`, not `[]`,
    /// since the output tells what the JSON holds; `null` reads back as the same default. None
    /// is written through an array index (`items[5]`): it would pad the array with `null`s. None
    /// is written inside another missing property's value, or through a level that is there and
    /// not an object (`address.city` of `{"address": null}`): the object made would read back as
    /// a value where the original has none. Missing levels are made.
    public static let includeNulls = JSONOutputOptions(rawValue: 1 << 0)
    /// Leaves out keys that no declared property reads.
    public static let onlyDeclared = JSONOutputOptions(rawValue: 1 << 1)
    /// Leaves out properties declared with `serialize: false`; one at an array index
    /// (`items[0]`) is written `null` there instead, so that the elements after it keep their
    /// places for the properties that read them.
    public static let omitNonSerialized = JSONOutputOptions(rawValue: 1 << 2)
}

extension JSONModel {
    /// The model's current JSON object: the original with writes applied.
    ///
    /// ```swift
    /// user.jsonModel.json()                          // every key, unknown ones too
    /// user.jsonModel.json(options: .onlyDeclared)    // declared properties only
    /// ```
    ///
    /// Numbers keep their exact text. Options apply to nested models too.
    ///
    /// - Parameter options: What to include.
    /// - Complexity: O(*n*) in the size of the object.
    func currentJSON(options: JSONOutputOptions = []) -> JSONValue {
        let object = currentSource.jsonValue
        if options.isEmpty { return object }
        return JSONModel.shape(object, metadata: metadata, options: options)
    }

    /// The model's current JSON as UTF-8 bytes.
    ///
    /// ```swift
    /// user.jsonModel.jsonBytes()                                              // compact, keys as they are
    /// user.jsonModel.jsonBytes(options: .onlyDeclared, format: [.prettyPrinted, .sortedKeys])
    /// ```
    ///
    /// - Parameters:
    ///   - options: What to include.
    ///   - format: How to write it: compact and in member order by default; see ``JSONWriteOptions``.
    func currentJSONBytes(options: JSONOutputOptions = [], format: JSONWriteOptions = []) -> [UInt8] {
        if options.isEmpty, case .node(let node) = currentSource {
            return node.jsonBytes(options: format)
        }
        return currentJSON(options: options).jsonBytes(options: format)
    }



    /// Applies output options to an object of the model described by `metadata`.
    ///
    /// Nested models (and the arrays and dictionaries that hold them) are shaped from a stack of
    /// frames rather than by recursion, so a model that contains itself is shaped at any depth
    /// its JSON has on a small stack. Each frame does what the recursive version did, in the
    /// same order: a model's object is selected and cleaned first, its nested values are shaped
    /// one at a time, each read from the object as it is by then, and `null`s are added last.
    ///
    /// A value is shaped once as each model class, at its place in the whole output
    /// (``ShapedPlace``): a value inside another that was shaped already is shaped with its own
    /// class's rules only where shaping the outer one did not reach it (`address.card`, declared
    /// beside an `address` whose class does not declare `card`). Skipping every value inside
    /// one shaped already let a `serialize: false` property of the inner model out, kept its
    /// unknown keys with `onlyDeclared`, and made the output depend on the order of the
    /// declarations; shaping it again for every way of reaching it was exponential in the depth
    /// of a model that holds itself at two overlapping paths.
    static func shape(_ object: JSONValue, metadata: ModelMetadata, options: JSONOutputOptions) -> JSONValue {
        var stack = [ShapeFrame(model: object, metadata: metadata, options: options)]
        var places = ShapedPlaces()
        var shaped: Set<ShapedPlace> = []
        var finished: JSONValue?
        while var frame = stack.popLast() {
            if let value = finished {
                frame.accept(value)
                finished = nil
            }
            switch frame.next(options: options) {
            case .done(let value):
                finished = value
            case .nested(let value, let type, let schema, let embed, let relative):
                let place = places.place(relative, below: frame.place)
                stack.append(frame)
                switch ShapeFrame.start(value, type: type, schema: schema, embed: embed, options: options) {
                case .done(let value):
                    finished = value
                case .frame(var nested):
                    if let model = nested.modelIdentity {
                        guard shaped.insert(ShapedPlace(place: place, model: model)).inserted else {
                            // Shaped as this class already, with a value that holds it.
                            finished = value
                            continue
                        }
                    }
                    nested.place = place
                    stack.append(nested)
                }
            }
        }
        return finished ?? object
    }
}

/// A value's place in the output (``ShapedPlaces``) and the model class it was shaped as: each
/// is shaped once.
private struct ShapedPlace: Hashable {
    let place: Int
    let model: ObjectIdentifier
}

/// The places of the values shaped in one output, each a number: the top is 0, and a place is
/// the one above it and one step down. A place is never a path of its own, so that the places
/// of a chain of models 50,000 deep take 50,000 entries, not a path of each length.
private struct ShapedPlaces {
    /// One step down from a place. Keys compare by their bytes (``ExactKey``), as the
    /// document's keys do: two spellings of one accented key are two places.
    struct Step: Hashable {
        enum Down: Hashable {
            case key(ExactKey)
            case index(Int)
        }

        let above: Int
        let down: Down
    }

    private var numbers: [Step: Int] = [:]

    /// The place `segments` below `above`.
    mutating func place(_ segments: [JSONPath.Segment], below above: Int) -> Int {
        var place = above
        for segment in segments {
            let down: Step.Down
            switch segment {
            case .key(let key): down = .key(ExactKey(key))
            case .index(let index): down = .index(index)
            }
            let step = Step(above: place, down: down)
            if let known = numbers[step] {
                place = known
            } else {
                place = numbers.count + 1
                numbers[step] = place
            }
        }
        return place
    }
}

/// A value being shaped by ``JSONModel/shape(_:metadata:options:)``, waiting for the nested values
/// it holds.
private struct ShapeFrame {
    enum Kind {
        /// A model's object (in `result`): its properties that hold models, the one being worked
        /// through and the index of its next path.
        case model(included: [PropertyMetadata], nested: [PropertyMetadata], property: Int, path: Int)
        /// An array of values of `element`, shaped into `elements` from `next` on; with `embed`,
        /// each value inside its element at that path (``PropertyRegistrar``'s `embedPath`).
        case array(source: JSONArray, element: PropertyType, next: Int, embed: JSONPath?)
        /// An object of values of `value` (a dictionary property), shaped into `members` from
        /// `next` on, in order, duplicate keys too.
        case dictionary(source: JSONObject, value: PropertyType, next: Int)
    }

    enum Step {
        case done(JSONValue)
        /// A nested value to shape, with its path from this frame's value.
        case nested(JSONValue, PropertyType, SchemaModelReference?, embed: JSONPath?, at: [JSONPath.Segment])
    }

    enum Start {
        case done(JSONValue)
        case frame(ShapeFrame)
    }

    var result: JSONValue
    var kind: Kind
    let schema: SchemaModelReference?
    /// The class of a model's frame, which it is shaped as; nil for an array or a dictionary.
    var modelIdentity: ObjectIdentifier?
    /// Where this frame's value is in the output (``ShapedPlaces``).
    var place = 0
    /// A model's object as it was before the options shaped it: what the levels of a path are
    /// in the JSON, where `onlyDeclared` left them out of `result`.
    var source: JSONValue = .null
    /// Where the nested value being shaped goes: a path in a model's object, or a dictionary key.
    var pendingPath: JSONPath?
    var pendingKey = ""
    /// The element of an array with an embed path whose embedded value is being shaped: what
    /// the shaped value is put back into (only the embed path, for declared properties only).
    var pendingWrapper: JSONValue?
    /// What an array or dictionary frame has shaped so far.
    var elements = JSONArray()
    var members = JSONObject()

    /// A model's object with the keys options leave out already removed.
    init(model object: JSONValue, metadata: ModelMetadata, options: JSONOutputOptions) {
        var result: JSONValue
        if options.contains(.onlyDeclared) {
            result = .object(JSONObject())
            for property in metadata.properties {
                for path in property.declaredOutputPaths {
                    if let value = object[path] { result[path] = value }
                }
            }
        } else {
            result = object
        }
        // A group's properties are at this level: the options reach them as they reach the
        // model's own (they reached none of them before: a group's nested models kept unknown
        // keys with onlyDeclared, its serialize: false properties were output, and its missing
        // ones got no null).
        let properties = metadata.outputProperties()
        let included = properties.filter { !options.contains(.omitNonSerialized) || $0.options.serialize }
        if options.contains(.omitNonSerialized) {
            let serializedPaths = included.flatMap(\.paths)
            for property in properties where !property.options.serialize {
                for path in property.paths where result[path] != nil {
                    // A serialized property's value inside this one's stays (`meta.title` inside
                    // `meta`): it is output, as it would be anywhere else.
                    let kept = Self.values(at: serializedPaths, inside: path, of: result)
                    // Removing an element moves the ones after it; removing a key moves nothing.
                    if case .index = path.segments.last {
                        result[path] = JSONValue.null
                    } else {
                        result[path] = nil
                    }
                    for (inner, value) in kept { result[inner] = value }
                }
            }
        }
        let nested = included.filter { $0.type.containsModel }
        self.source = object
        self.result = result
        self.kind = .model(included: included, nested: nested, property: 0, path: 0)
        self.schema = nil
        self.modelIdentity = ObjectIdentifier(metadata)
    }

    init(result: JSONValue, kind: Kind, schema: SchemaModelReference?) {
        self.result = result
        self.kind = kind
        self.schema = schema
    }

    /// Starts shaping `value` as a value of `type`: a frame for a model or a collection of them,
    /// the value itself for anything else.
    static func start(
        _ value: JSONValue, type: PropertyType, schema: SchemaModelReference?, embed: JSONPath? = nil,
        options: JSONOutputOptions
    ) -> Start {
        var type = type
        while case .optional(let wrapped) = type { type = wrapped }
        switch (type, value) {
        case (.model(let modelType), .object):
            // Polymorphism: shaped as the class the object calls for.
            let resolved = modelType.resolvedClass(for: .value(value))
            return .frame(ShapeFrame(model: value, metadata: ModelRegistry.shared.metadata(for: resolved), options: options))
        case (.schemaModel, .object):
            guard let metadata = schema?.metadata else { return .done(value) }
            return .frame(ShapeFrame(model: value, metadata: metadata.resolvedSchemaModel(for: .value(value)), options: options))
        case (.array(let element), .array(let elements)):
            var frame = ShapeFrame(
                result: .null, kind: .array(source: elements, element: element, next: 0, embed: embed), schema: schema)
            frame.elements.reserveCapacity(elements.count)
            return .frame(frame)
        case (.dictionary(let valueType), .object(let members)):
            var frame = ShapeFrame(result: .null, kind: .dictionary(source: members, value: valueType, next: 0), schema: schema)
            frame.members.reserveCapacity(members.count)
            return .frame(frame)
        default:
            return .done(value)
        }
    }

    /// The values of `result` at those of `paths` that lie inside `outer` (longer), with their
    /// paths; not through an array index unless `throughIndexes`, for a caller that puts them
    /// back where the array may have lost the element, which would pad it.
    static func values(
        at paths: [JSONPath], inside outer: JSONPath, of result: JSONValue, throughIndexes: Bool = false
    ) -> [(JSONPath, JSONValue)] {
        paths.compactMap { path in
            guard path.segments.count > outer.segments.count, path.segments.starts(with: outer.segments),
                throughIndexes || !path.throughIndex, let value = result[path]
            else { return nil }
            return (path, value)
        }
    }

    /// Takes the shaped nested value asked for by the last ``next(options:)``.
    mutating func accept(_ value: JSONValue) {
        switch kind {
        case .model(let included, _, _, _):
            if let path = pendingPath {
                // What this model declares inside the nested one (`address.city` beside an
                // `address` model) is output, though the nested model's own options may leave it
                // out: without it, `onlyDeclared` output, and the equality that uses it, lost a
                // value the model reads.
                // Through an index too (`items[0].label` beside an `items` of models): the shaped
                // array keeps every element in its place, and a value goes back only into an
                // object that is there, so nothing is padded.
                let declared = Self.values(at: included.flatMap(\.paths), inside: path, of: result, throughIndexes: true)
                result[path] = value
                for (inner, kept) in declared where result[inner] == nil {
                    let holder = JSONPath(Array(inner.segments.dropLast()))
                    guard !inner.throughIndex || result[holder]?.objectValue != nil else { continue }
                    result[inner] = kept
                }
            }
            pendingPath = nil
        case .array(_, _, _, let embed):
            if let embed, var wrapper = pendingWrapper {
                wrapper[embed] = value
                elements.append(wrapper)
            } else {
                elements.append(value)
            }
            pendingWrapper = nil
        case .dictionary:
            members.append(key: pendingKey, value: value)
        }
    }

    /// The next nested value to shape, or the finished value.
    mutating func next(options: JSONOutputOptions) -> Step {
        switch kind {
        case .model(let included, let nested, var property, var path):
            while property < nested.count {
                let paths = nested[property].paths
                while path < paths.count {
                    let candidate = paths[path]
                    path += 1
                    if let value = result[candidate], !value.isNull {
                        kind = .model(included: included, nested: nested, property: property, path: path)
                        pendingPath = candidate
                        return .nested(
                            value, nested[property].type, nested[property].schemaModel,
                            embed: nested[property].options.embedPath, at: candidate.segments)
                    }
                }
                property += 1
                path = 0
            }
            if options.contains(.includeNulls) {
                let missing = included.filter { property in !property.paths.contains(where: { result[$0] != nil }) }
                let missingPaths = missing.map(\.paths[0].segments)
                for property in missing {
                    let path = property.paths[0].segments
                    // Not through an array index: a null at `items[5]` of a two-element array
                    // would pad it with four more, changing what other keys and readers see.
                    if property.paths[0].throughIndex { continue }
                    // Not inside another missing property's value, which is null, nor through a
                    // level the JSON has as something else than an object (a null, say): an
                    // object made there would read back as a value where the original has none.
                    // Missing levels are made.
                    if missingPaths.contains(where: { $0.count < path.count && path.starts(with: $0) }) { continue }
                    let levels = stride(from: 1, to: path.count, by: 1).lazy.map { JSONPath(Array(path.prefix($0))) }
                    // The levels as the JSON has them: `onlyDeclared` left a null level out of the result.
                    if levels.contains(where: { level in (result[level] ?? source[level]).map { $0.objectValue == nil } ?? false }) {
                        continue
                    }
                    result[property.paths[0]] = .null
                }
            }
            return .done(result)
        case .array(let source, let element, var next, let embed):
            while next < source.count {
                let value = source[next]
                next += 1
                guard let embed else {
                    kind = .array(source: source, element: element, next: next, embed: nil)
                    return .nested(value, element, schema, embed: nil, at: [.index(next - 1)])
                }
                // The model inside its element: shaped, and put back in the element. An element
                // without one is kept as it is (the array left it out of its models).
                guard let inner = value[embed], !inner.isNull else {
                    elements.append(value)
                    continue
                }
                kind = .array(source: source, element: element, next: next, embed: embed)
                pendingWrapper = options.contains(.onlyDeclared) ? .object(JSONObject()) : value
                return .nested(inner, element, schema, embed: nil, at: [.index(next - 1)] + embed.segments)
            }
            return .done(.array(elements))
        case .dictionary(let source, let valueType, let next):
            guard next < source.members.count else { return .done(.object(members)) }
            let member = source.members[next]
            kind = .dictionary(source: source, value: valueType, next: next + 1)
            pendingKey = member.key
            return .nested(member.value, valueType, schema, embed: nil, at: [.key(member.key)])
        }
    }
}

extension JSONPath {
    /// Whether the path goes through an array index.
    var throughIndex: Bool {
        segments.contains { if case .index = $0 { true } else { false } }
    }
}

extension JSONModel: EncodedAsItsJSON {
    /// The model's JSON, as ``JSONModelView/json(options:)`` gives it, for the encoder of
    /// `Codable` values that hold models.
    var encodedJSON: JSONValue { jsonModel.json() }
}
