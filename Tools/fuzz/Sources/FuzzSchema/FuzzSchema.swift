import Foundation
import JSONModelKit

// Random schemas over random documents.
//
// The input is split at its first zero byte. The part before is either a schema given as JSON
// (an object with "models", or a conformance case with "schema" or "schemaFile", "model" and
// "input", so the corpus can hold real schemas and the Specs folder seeds it as it is), or, when
// it is not, the choices of a generator that writes a schema: 1 to 4 models, each with 1 to 8
// properties of any type of the grammar and every option, valid or not. Now and then a second
// schema, whose models use and extend the first one's, is registered after it. The part after
// the zero byte, when it parses, is the document; otherwise the same choices write one that
// follows the schemas (paths, types, discriminator tags), with wrong values among the right ones.
//
// Whatever registers is read, validated, described, dumped, output with every option, encoded,
// compared, copied, written and merged; each model made of the document and of objects inside
// it. Any trap, sanitizer report, hang or memory blow-up is a finding, and so is a failed check:
// a schema that registered registers again; reads change no output; output parses back equal;
// a model equals its copy, with the same hash; writes to a mutable copy leave the model as it
// was, and clearing them gives the copy its first JSON again.

/// `FUZZSCHEMA_PRINT=1`: print each schema that registers and its document, to turn a finding
/// into a test.
let printsInputs = ProcessInfo.processInfo.environment["FUZZSCHEMA_PRINT"] != nil

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSchema(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let split = bytes.firstIndex(of: 0) ?? bytes.count
    let head = Array(bytes[..<split])
    let tail = split < bytes.count ? Array(bytes[(split + 1)...]) : []

    var choices: Choices
    var schemaJSON: JSONValue
    var document: JSONValue?
    var rootModel: String?
    if let given = GivenSchema(head) {
        schemaJSON = given.schema
        document = given.input
        rootModel = given.model
        choices = Choices(tail.isEmpty ? head : tail)
    } else {
        choices = Choices(head)
        var generator = SchemaGenerator(choices: choices)
        schemaJSON = generator.schema()
        choices = generator.choices
    }
    if document == nil, !tail.isEmpty {
        document = try? JSONDocument(bytes: tail, options: JSONParseOptions(maxDepth: 64)).root.value
    }

    let schema: ModelSchema
    do {
        schema = try ModelSchema(json: schemaJSON)
    } catch {
        _ = error.description
        return 0
    }
    let registry = ModelRegistry()
    do {
        try registry.register(schema)
    } catch {
        _ = error.description
        return 0
    }
    // A model registered again with an identical definition is left as it is.
    do {
        try registry.register(schema)
    } catch {
        fatalError("an identical schema does not register again: \(error)")
    }
    // Now and then a second schema, whose models use and extend those registered.
    var models = SchemaOutline(json: schemaJSON).models
    var secondJSON: JSONValue?
    if choices.chance(25) {
        var generator = SchemaGenerator(choices: choices)
        generator.namePool = ["Extra", "More", "Node", "Last"]
        generator.registered = models.map(\.name)
        let second = generator.schema()
        choices = generator.choices
        if let more = try? ModelSchema(json: second), (try? registry.register(more)) != nil {
            models += SchemaOutline(json: second).models
            secondJSON = second
        }
    }
    let all = SchemaOutline(models: models)

    let names = all.models.map(\.name)
    guard !names.isEmpty else { return 0 }
    var writer = DocumentWriter(schema: all, choices: choices)
    let root = rootModel.flatMap { names.contains($0) ? $0 : nil } ?? writer.choices.pick(names)
    let generated = document ?? writer.object(of: root, depth: 0)
    // Round trip through text and the parser, as a document from outside would come. Paths up
    // to index 10,000 in nested models can write a document of megabytes from a few bytes of
    // input: past 64 KB the input is left, so that the fuzzer keeps its pace.
    let text = Array(generated.jsonString().utf8)
    guard text.count <= 65_536, let parsed = try? JSONDocument(bytes: text, options: JSONParseOptions(maxDepth: 64)) else {
        return 0
    }
    if printsInputs {
        let second = secondJSON.map { "second schema: \($0)\n" } ?? ""
        FileHandle.standardError.write(Data("schema: \(schemaJSON)\n\(second)document: \(parsed.root.value)\nroot: \(root)\n".utf8))
    }
    var exerciser = Exerciser(schema: all, registry: registry, choices: writer.choices, document: parsed.root.value)
    exerciser.run(root: root)
    return 0
}

// MARK: - Choices

/// The fuzzer's bytes as a stream of choices; past the end, SplitMix64 seeded from the bytes, so
/// that a short input still makes a whole schema and each byte still steers one choice.
struct Choices {
    let bytes: [UInt8]
    var position = 0
    var state: UInt64

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var seed: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { seed = (seed ^ UInt64(byte)) &* 0x100_0000_01B3 }
        state = seed
    }

    mutating func byte() -> UInt8 {
        if position < bytes.count {
            defer { position += 1 }
            return bytes[position]
        }
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return UInt8(truncatingIfNeeded: z ^ (z >> 31))
    }

    /// A number in `0..<bound` (0 when `bound` is at most 1).
    mutating func below(_ bound: Int) -> Int {
        guard bound > 1 else { return 0 }
        if bound <= 256 { return Int(byte()) % bound }
        return (Int(byte()) << 8 | Int(byte())) % bound
    }

    /// True `percent` times in 100.
    mutating func chance(_ percent: Int) -> Bool { Int(byte()) % 100 < percent }

    mutating func pick<T>(_ list: [T]) -> T { list[below(list.count)] }
}

// MARK: - Schemas given as JSON

/// A schema the input holds as JSON: `{"models": …}` (other keys dropped; `input` is the
/// document), or a conformance case (`schema` or `schemaFile`, `model`, `input`).
struct GivenSchema {
    var schema: JSONValue
    var input: JSONValue?
    var model: String?

    init?(_ bytes: [UInt8]) {
        guard let object = (try? JSONDocument(bytes: bytes, options: JSONParseOptions(maxDepth: 64)))?.root.value.objectValue
        else { return nil }
        if let models = object["models"] {
            schema = ["models": models]
        } else if let inline = object["schema"] {
            schema = inline
        } else if let file = object["schemaFile"]?.stringValue, let shared = Self.sharedSchema(file) {
            schema = shared
        } else {
            return nil
        }
        input = object["input"]
        model = object["model"]?.stringValue
    }

    /// The folder of the schemas the conformance cases share, beside this package.
    static let sharedSchemas: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<5 { url.deleteLastPathComponent() }  // the file, FuzzSchema, Sources, fuzz, Tools
        return url.appendingPathComponent("Specs/schemas").path
    }()

    /// A shared schema named by a case's `schemaFile`: only a plain file name of that folder.
    static func sharedSchema(_ reference: String) -> JSONValue? {
        guard let name = reference.split(separator: "/").last,
            name.hasSuffix(".json"),
            name.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || (0x61...0x7A).contains($0) }),
            let data = FileManager.default.contents(atPath: sharedSchemas + "/" + name)
        else { return nil }
        return try? JSONDocument(data: data).root.value
    }
}

// MARK: - Generating schemas

/// Writes a schema from choices. A quarter of the schemas are hostile: they break rules now and
/// then (unknown types, nesting past the limit, `Int??`, options on the wrong types, wrong
/// defaults, bad paths and date patterns, `extends` cycles, discriminators to unrelated models,
/// models named like built-in types); the others mostly keep them, so that they register and
/// the models behind them get exercised.
struct SchemaGenerator {
    var choices: Choices
    var hostile = false
    /// Names of the new models; the first schema's, or (for a second schema) others.
    var namePool = ["Node", "Item", "Owner", "Tag"]
    /// Models registered before, which a second schema may use and extend.
    var registered: [String] = []
    var modelNames: [String] = []
    var extends: [String?] = []
    var usedPropertyNames: Set<String> = []

    init(choices: Choices) {
        self.choices = choices
    }

    static let builtins = [
        "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
        "Double", "Float", "Bool", "String", "Decimal", "Date", "URL", "UUID", "Data", "JSON",
    ]
    static let hostileModelNames = ["Int", "String", "Date", "JSON", "UUID", "", "JSONModel", "DynamicModel", "Node", "a b", "Ä"]
    static let propertyPool = [
        "id", "title", "count", "items", "child", "children", "kind", "tags", "meta", "when", "link", "uid",
        "blob", "raw", "amount", "x", "y", "parent", "name", "flag",
    ]
    static let hostilePropertyNames = ["description", "value", "hash", "json", "", "a.b", "é", "$", "copy", "dynamic"]
    static let keyPool = ["a", "b", "c", "id", "data", "node", "info", "items", "0", "kind", "x.y", "meta", ""]
    static let dateFormats = [
        "iso8601", "secondsSince1970", "millisecondsSince1970", "MM/dd/yyyy", "yyyy-MM-dd",
        "yyyy-MM-dd'T'HH:mm:ss.SSSXXX", "EEE MMM d yyyy HH:mm:ss zzz", "yyyyMMdd", "dd.MM.yy HH:mm", "h:mm a",
        "yyyy-DDD", "yyyy-MM-dd HH:mm:ss.SSSSSSSSS", "MMMM d, yyyy", "'T'HH''mm",
    ]
    static let hostileDateFormats = [
        "yyyyy", "MMMMM", "ddd", "SSSSSSSSSS", "'", "''", "HHH", "", "zzzzzzzzzz", "xxxxxx", "QQQQ",
        String(repeating: "y", count: 200), "'unterminated", "yyyy-MM-dd'T'HH:mm:ss.SSSSSSSSSSSSSSSSSSSS",
    ]
    static let converters = ["iso8601", "secondsSince1970", "millisecondsSince1970", "hexColor", "uppercase", "lowercase", "cents", ""]

    mutating func schema() -> JSONValue {
        hostile = choices.below(4) == 0
        if hostile && choices.chance(3) { return longChain() }
        let count = 1 + choices.below(4)
        for index in 0..<count {
            var name = namePool[index]
            if hostile && choices.chance(8) { name = choices.pick(Self.hostileModelNames) }
            modelNames.append(name)
        }
        // Parents first, so properties and discriminators can follow the chains.
        for index in 0..<count {
            var parent: String?
            if choices.chance(25) {
                let others = modelNames.indices.filter { $0 != index }.map { modelNames[$0] } + registered
                if hostile {
                    parent = choices.pick(modelNames + ["Missing", "Int"])
                } else if !others.isEmpty {
                    let candidate = choices.pick(others)
                    // Clean schemas have no cycles.
                    if !ancestors(of: candidate).contains(modelNames[index]) { parent = candidate }
                }
            }
            extends.append(parent)
        }
        var models: [JSONValue] = []
        for index in 0..<count { models.append(model(at: index)) }
        return ["models": .array(models)]
    }

    /// Models at and above `name` along `extends`, bounded against cycles.
    func ancestors(of name: String) -> [String] {
        var chain: [String] = []
        var current: String? = name
        while let next = current, chain.count <= modelNames.count, let index = modelNames.firstIndex(of: next) {
            chain.append(next)
            current = index < extends.count ? extends[index] : nil
        }
        return chain
    }

    /// A chain of 18 models, each extending the next: more ancestors than a schema allows.
    mutating func longChain() -> JSONValue {
        let length = 15 + choices.below(5)
        let models: [JSONValue] = (0..<length).map { index in
            var model: JSONObject = ["name": .string("L\(index)"), "properties": [["name": .string("p\(index)"), "type": "Int"]]]
            if index + 1 < length { model.append(key: "extends", value: .string("L\(index + 1)")) }
            return .object(model)
        }
        return ["models": .array(models)]
    }

    mutating func model(at index: Int) -> JSONValue {
        let name = modelNames[index]
        var object: JSONObject = ["name": .string(name)]
        if let parent = extends[index] { object.append(key: "extends", value: .string(parent)) }
        if choices.chance(hostile ? 20 : 12) {
            let descendants = modelNames.filter { ancestors(of: $0).dropFirst().contains(name) }
            var map: JSONObject = [:]
            let pool = hostile ? modelNames + ["Missing", name] : descendants + [name]
            for tag in ["a", "b", "dog", ""].prefix(1 + choices.below(3)) {
                map.append(key: tag, value: .string(choices.pick(pool)))
            }
            let path: JSONValue = choices.pick(["kind", "type", ["meta", "kind"], ["tags", 0], "a.b.c"])
            object.append(key: "discriminator", value: ["jsonPath": path, "map": .object(map)])
        }
        let count = 1 + choices.below(8)
        var properties: [JSONValue] = []
        for _ in 0..<count { properties.append(property(in: name)) }
        object.append(key: "properties", value: .array(properties))
        return .object(object)
    }

    mutating func propertyName() -> String {
        if hostile && choices.chance(3) { return choices.pick(Self.hostilePropertyNames) }
        var name = choices.pick(Self.propertyPool)
        // Names are unique across a clean schema, so no chain declares one twice.
        if usedPropertyNames.contains(name) && !(hostile && choices.chance(30)) {
            var number = 2
            while usedPropertyNames.contains("\(name)\(number)") { number += 1 }
            name += "\(number)"
        }
        usedPropertyNames.insert(name)
        return name
    }

    mutating func property(in model: String) -> JSONValue {
        let name = propertyName()
        var type = typeText(level: 0)
        var parsedType = SchemaType(parsing: type)
        var object: JSONObject = ["name": .string(name)]
        let base = parsedType.map(Self.baseName) ?? ""
        let modelTyped = (modelNames + registered).contains(base)
        let modelOrOptionalModel = parsedType.map { $0 == .named(base) || $0 == .optional(.named(base)) } == true && modelTyped
        let modelArray: Bool = {
            switch parsedType {
            case .array(let element), .optional(.array(let element)):
                return modelTyped && (element == .named(base) || element == .optional(.named(base)))
            default: return false
            }
        }()
        var dateFormat: String?
        if choices.chance(base == "Date" || hostile ? 50 : 0) {
            let format = hostile && choices.chance(40) ? choices.pick(Self.hostileDateFormats) : choices.pick(Self.dateFormats)
            dateFormat = format
            object.append(key: "dateFormat", value: .string(format))
        }
        var enumValues: [String]?
        if choices.chance(base == "String" || (hostile && choices.chance(10)) ? 30 : 0) {
            let values = Array(["a", "b", "x", "", "é"].prefix(1 + choices.below(5)))
            enumValues = values
            object.append(key: "enumValues", value: hostile && choices.chance(20) ? [1, "a"] : .array(values.map(JSONValue.string)))
        }
        var group = false
        if modelOrOptionalModel && choices.chance(15) || hostile && choices.chance(3) {
            group = true
            object.append(key: "group", value: true)
        }
        if !group && choices.chance(30) {
            object.append(key: "jsonPath", value: path())
        }
        if !group && choices.chance(10) {
            let alternatives = (0...choices.below(3)).map { _ in path() }
            object.append(key: "anyOf", value: hostile && choices.chance(10) ? choices.pick([[], "x", [5]]) : .array(alternatives))
        }
        if modelArray && choices.chance(30) || hostile && choices.chance(3) {
            object.append(key: "embedPath", value: path())
        }
        if (modelTyped || hostile) && choices.chance(20) {
            object.append(key: "inverse", value: .string(choices.pick(["parent", "owner", name, model])))
        }
        if choices.chance(5) { object.append(key: "converter", value: .string(choices.pick(Self.converters))) }
        if choices.chance(10) { object.append(key: "serialize", value: hostile && choices.chance(10) ? "no" : .bool(choices.chance(50))) }
        if choices.chance(10) { object.append(key: "readOnly", value: hostile && choices.chance(10) ? 1 : .bool(choices.chance(50))) }
        // Date, URL and UUID have no natural default: a clean schema gives one or makes them optional.
        let needsDefault = ["Date", "URL", "UUID"].contains(parsedType.map { "\($0)" } ?? "")
        if choices.chance(needsDefault ? 70 : 20) {
            if hostile && choices.chance(50) || parsedType == nil {
                var writer = DocumentWriter(schema: SchemaOutline(models: []), choices: choices)
                object.append(key: "default", value: writer.anyJSON(depth: 1))
                choices = writer.choices
            } else if let parsedType {
                object.append(key: "default", value: defaultValue(for: parsedType, dateFormat: dateFormat, enumValues: enumValues))
            }
        } else if needsDefault && !hostile {
            type += "?"
            parsedType = parsedType.map { .optional($0) }
        }
        object.append(key: "type", value: .string(type))
        return .object(object)
    }

    static func baseName(_ type: SchemaType) -> String {
        switch type {
        case .named(let name): name
        case .array(let inner), .dictionary(let inner), .optional(let inner): baseName(inner)
        }
    }

    /// A type expression, nested a few levels; now and then the deepest allowed, or (hostile)
    /// deeper, a nested optional, an unknown name or text that is not a type.
    mutating func typeText(level: Int) -> String {
        if level == 0 && choices.chance(2) {
            // 32 levels: 16 arrays, each of an optional. One more is refused.
            let name = choices.chance(50) ? "Int" : choices.pick(modelNames)
            let deepest = String(repeating: "[", count: 16) + name + "?" + String(repeating: "]?", count: 15) + "]"
            return hostile && choices.chance(50) ? deepest + "?" : deepest
        }
        if hostile && choices.chance(3) {
            return choices.pick([
                "Int??", "[Int]??", "[String: Int", "[Int: Int]", "Missing", "int", "[]", "?", " Int ", "[ String : [Int?] ]",
                String(repeating: "[", count: 40) + "Int" + String(repeating: "]", count: 40), "Int?" + " ?",
            ])
        }
        let roll = choices.below(100)
        if level >= 3 || roll < 55 {
            if choices.chance(30) && !modelNames.isEmpty { return choices.pick(modelNames + registered) }
            return choices.pick(Self.builtins)
        }
        if roll < 72 { return "[" + typeText(level: level + 1) + "]" }
        if roll < 84 { return "[String: " + typeText(level: level + 1) + "]" }
        let inner = typeText(level: level + 1)
        return inner.hasSuffix("?") ? inner : inner + "?"
    }

    /// A path: dotted text, or a list of keys and indices; (hostile) the root, negative or
    /// huge indices, numbers that are not integers.
    mutating func path() -> JSONValue {
        let length = 1 + choices.below(3)
        if choices.chance(50) {
            var text = (0..<length).map { _ in choices.pick(Self.keyPool.filter { !$0.isEmpty }) }.joined(separator: ".")
            if choices.chance(20) { text += "[\(choices.chance(5) ? 10_000 : choices.below(3))]" }
            if hostile && choices.chance(20) { text = choices.pick(["$", "", "a[-1]", "a[10001]", "a[99999999999999999999]", "[\"x.y\"]", "a..b", "[0]"]) }
            return .string(text)
        }
        var segments: [JSONValue] = []
        for _ in 0..<length {
            if choices.chance(30) {
                // The largest index a path may hold, now and then: a write pads up to it.
                var indices: [JSONValue] = [0, 1, 2, 3, choices.chance(5) ? 10_000 : 0]
                if hostile {
                    indices += [-1, 10_001, .number(JSONNumber(Int64.max)), .number(JSONNumber(text: "1e20")!), 2.5, "$", true]
                }
                segments.append(choices.pick(indices))
            } else {
                segments.append(.string(choices.pick(Self.keyPool)))
            }
        }
        return hostile && choices.chance(5) ? [] : .array(segments)
    }

    /// A default that converts to `type`: objects where models are.
    mutating func defaultValue(for type: SchemaType, dateFormat: String?, enumValues: [String]?) -> JSONValue {
        switch type {
        case .optional(let wrapped):
            return choices.chance(30) ? .null : defaultValue(for: wrapped, dateFormat: dateFormat, enumValues: enumValues)
        case .array(let element):
            return choices.chance(50) ? [] : [defaultValue(for: element, dateFormat: dateFormat, enumValues: enumValues)]
        case .dictionary(let value):
            return choices.chance(50) ? [:] : ["k": defaultValue(for: value, dateFormat: dateFormat, enumValues: enumValues)]
        case .named(let name):
            switch name {
            case "Int", "Int8", "Int16", "Int32", "Int64": return choices.pick([0, 1, -1, 7])
            case "UInt", "UInt8", "UInt16", "UInt32", "UInt64": return choices.pick([0, 1, 100])
            case "Double", "Float", "Decimal": return choices.pick([0, 1.5, "2.25"])
            case "Bool": return .bool(choices.chance(50))
            case "String": return .string(enumValues?.first ?? choices.pick(["", "text"]))
            case "Date":
                switch dateFormat {
                case "secondsSince1970": return 1_600_000_000
                case "millisecondsSince1970": return .number(JSONNumber(1_600_000_000_000))
                case "MM/dd/yyyy": return "01/02/2020"
                case "yyyy-MM-dd": return "2020-01-02"
                default: return "2020-01-02T03:04:05Z"
                }
            case "URL": return "https://example.com/a"
            case "UUID": return "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
            case "Data": return "aGVsbG8="
            case "JSON": return choices.pick([nil, 1, "x", [1], ["a": 1]])
            default: return choices.chance(50) ? [:] : ["id": 1]
            }
        }
    }
}

// MARK: - Generating documents

/// Writes a document for a schema: each property's value (or, now and then, a wrong one, or
/// none) at one of its paths, models nested a few levels, discriminator tags from the maps.
struct DocumentWriter {
    let models: [String: SchemaOutline.Model]
    var choices: Choices

    init(schema: SchemaOutline, choices: Choices) {
        var models: [String: SchemaOutline.Model] = [:]
        for model in schema.models where models[model.name] == nil { models[model.name] = model }
        self.models = models
        self.choices = choices
    }

    /// The properties of `name` and of its ancestors (a few steps: chains may be cycles).
    func properties(of name: String) -> [SchemaOutline.Property] {
        var list: [SchemaOutline.Property] = []
        var current: String? = name
        var steps = 0
        while let next = current, let model = models[next], steps < 20 {
            list += model.properties
            current = model.extends
            steps += 1
        }
        return list
    }

    mutating func object(of name: String, depth: Int) -> JSONValue {
        var value: JSONValue = [:]
        guard let model = models[name] else { return value }
        for property in properties(of: name) where !choices.chance(15) {
            var item = choices.chance(10) ? anyJSON(depth: 1) : self.value(of: property.type, property: property, depth: depth)
            if property.group {
                for (key, member) in item.objectValue ?? [:] { try? value.setValue(member, at: JSONPath([.key(key)])) }
                continue
            }
            let path = property.paths.isEmpty ? JSONPath([.key(property.name)]) : choices.pick(property.paths)
            if path.segments.isEmpty { continue }
            if case .optional = property.type, choices.chance(10) { item = .null }
            try? value.setValue(item, at: path)
        }
        if let discriminator = model.discriminator, !discriminator.path.segments.isEmpty, choices.chance(80) {
            let tags = discriminator.map.keys.sorted() + ["unknown"]
            try? value.setValue(.string(choices.pick(tags)), at: discriminator.path)
        }
        return value
    }

    mutating func value(of type: SchemaType, property: SchemaOutline.Property, depth: Int) -> JSONValue {
        switch type {
        case .optional(let wrapped):
            return choices.chance(15) ? .null : value(of: wrapped, property: property, depth: depth)
        case .array(let element):
            if depth > 3 { return [] }
            var elements: [JSONValue] = []
            for _ in 0..<choices.below(4) {
                var item = choices.chance(5) ? anyJSON(depth: 1) : value(of: element, property: property, depth: depth + 1)
                if let embed = property.embedPath, !embed.segments.isEmpty {
                    var wrapper: JSONValue = [:]
                    try? wrapper.setValue(item, at: embed)
                    item = wrapper
                }
                elements.append(item)
            }
            return .array(elements)
        case .dictionary(let valueType):
            if depth > 3 { return [:] }
            var object: JSONObject = [:]
            for key in ["k", "", "é", "k2"].prefix(choices.below(4)) {
                object.append(key: key, value: value(of: valueType, property: property, depth: depth + 1))
            }
            return .object(object)
        case .named(let name):
            if models[name] != nil {
                return depth > 3 || choices.chance(10) ? choices.pick([[:], .null, 5]) : object(of: name, depth: depth + 1)
            }
            return scalar(name, property: property)
        }
    }

    static func number(_ text: String) -> JSONValue { .number(JSONNumber(text: text)!) }

    static let integers = [
        "0", "1", "-1", "127", "128", "-129", "255", "256", "32767", "65536", "2147483648", "9223372036854775807",
        "9223372036854775808", "18446744073709551615", "18446744073709551616", "-9223372036854775809", "1e2", "2.5",
        "-0", "1e400", "3.0", "1E-2",
    ].map(number)
    static let floats = ["1.5", "1e39", "1e308", "1e400", "-0", "3.4028235e38", "1e-50", "0.1", "123456789.123456789"].map(number)

    mutating func scalar(_ name: String, property: SchemaOutline.Property) -> JSONValue {
        if choices.chance(8) { return choices.pick([.null, true, "text", [], [:], 7]) }
        switch name {
        case "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64":
            return choices.chance(80) ? choices.pick(Self.integers) : choices.pick(["42", "2.5", "abc", " 5", "-7", "1e3"])
        case "Double", "Float":
            return choices.chance(80) ? choices.pick(Self.floats) : choices.pick(["NaN", "Infinity", "-1.25", "1e400"])
        case "Decimal":
            return choices.pick(Self.floats + Self.integers + ["1.25", "1e-400", "NaN", "123456789012345678901234567890.5"])
        case "Bool":
            return choices.pick([true, false, 0, 1, 2, -1, 0.5, "yes", "no", "on", "T", "", "1"])
        case "String":
            let values: [JSONValue] = (property.enumValues ?? []).map(JSONValue.string) + [
                "", "x", "héllo", "\u{0}", Self.number("1.50"), Self.number("1e3"), .string(String(repeating: "long ", count: 80)),
            ]
            return choices.pick(values)
        case "Date":
            return choices.pick([
                "2020-01-02T03:04:05Z", "2020-01-02T03:04:05.123+02:00", 1_600_000_000, Self.number("1.6e12"),
                "01/02/2020", "2020-01-02", "20200102", "Thu Jan 02 2020 03:04:05 GMT+0000", "-999999-01-01T00:00:00Z",
                "9999-12-31T23:59:59-14:00", "0000-01-01T00:00:00+14:00", Self.number("1e300"), Self.number("-1e20"),
                "1600000000", "garbage", "13/45/2020", "Jan 2, 2020", "12:30 PM",
            ])
        case "URL":
            return choices.pick(["https://example.com/a?b=c#d", "", "not a url", "http://[::1]:80/", "mailto:x@y", "é/ü", "%zz", "//"])
        case "UUID":
            return choices.pick(["E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "nope", "", "E621E1F8C36C495A93FC0C247A3E6E5F"])
        case "Data":
            return choices.pick(["aGVsbG8=", "", "!!!", "aGVsbG8", "====", 5, "YQ"])
        default:
            return anyJSON(depth: 1)
        }
    }

    /// Any JSON, a few levels deep.
    mutating func anyJSON(depth: Int) -> JSONValue {
        switch choices.below(depth > 3 ? 6 : 9) {
        case 0: return .null
        case 1: return .bool(choices.chance(50))
        case 2: return choices.pick(Self.integers)
        case 3: return choices.pick(Self.floats)
        case 4: return .string(choices.pick(["", "a", "kind", "2020-01-02T03:04:05Z", "42", "true", "dog"]))
        case 5: return choices.pick([[], [:]])
        case 6, 7:
            var object: JSONObject = [:]
            for key in ["id", "kind", "a", "items", "child"].prefix(choices.below(4)) {
                object.append(key: key, value: anyJSON(depth: depth + 1))
            }
            return .object(object)
        default:
            return .array((0..<choices.below(4)).map { _ in anyJSON(depth: depth + 1) })
        }
    }
}

// MARK: - Exercising models

/// Everything public a model does, on models of each schema model over the document and over
/// objects inside it.
struct Exerciser {
    let schema: SchemaOutline
    let registry: ModelRegistry
    var choices: Choices
    let document: JSONValue
    let inverseNames: [String]
    /// Whether non-optional model properties cycle (`Node.next: Node`): then every model holds
    /// an empty model at every level, and `fullDescription`, which opens 12 of them, takes time
    /// exponential in the number of such properties (a finding left to the description walk).
    let defaultModelsCycle: Bool

    init(schema: SchemaOutline, registry: ModelRegistry, choices: Choices, document: JSONValue) {
        self.schema = schema
        self.registry = registry
        self.choices = choices
        self.document = document
        inverseNames = Array(Set(schema.models.flatMap { $0.properties.compactMap(\.inverse) })).sorted()
        let writer = DocumentWriter(schema: schema, choices: choices)
        var edges: [String: [String]] = [:]
        for name in writer.models.keys {
            edges[name] = writer.properties(of: name).compactMap { property in
                if case .named(let target) = property.type, writer.models[target] != nil { return target }
                return nil
            }
        }
        var marks: [String: Bool] = [:]  // false: on the path; true: done
        func cycles(from name: String) -> Bool {
            if let done = marks[name] { return !done }
            marks[name] = false
            defer { marks[name] = true }
            return edges[name, default: []].contains(where: cycles(from:))
        }
        defaultModelsCycle = edges.keys.sorted().contains(where: cycles(from:))
    }

    static let reparseOptions = JSONParseOptions(maxDepth: 100_000)

    mutating func run(root: String) {
        let names = schema.models.map(\.name)
        var made = 0
        if let model = try? registry.makeModel(named: root, json: document, options: ModelOptions(mutable: choices.chance(50))) {
            exercise(model, thoroughly: true)
            made += 1
        }
        // Objects inside the document, each as a model or two of the schema.
        var objects: [JSONValue] = []
        var stack = [document]
        while let value = stack.popLast(), objects.count < 16 {
            if let object = value.objectValue {
                objects.append(value)
                stack += object.map(\.value)
            } else if let array = value.arrayValue {
                stack += array
            }
        }
        for _ in 0..<min(3, objects.count) {
            let object = choices.pick(objects)
            for _ in 0..<2 where made < 4 {
                guard let model = try? registry.makeModel(named: choices.pick(names), json: object, options: ModelOptions(mutable: choices.chance(50))) else {
                    continue
                }
                exercise(model)
                made += 1
            }
        }
    }

    /// Reads, validates, describes, outputs, copies, writes, merges and clears; `thoroughly`
    /// (the document's own model) adds the full description, `dump`, every output option and
    /// `Codable`, which the models of objects inside the document skip to keep the pace.
    mutating func exercise(_ model: JSONModel, thoroughly: Bool = false) {
        let before = model.jsonModel.json()
        let names = model.jsonModel.propertyNames
        for name in names {
            let value = untypedValue(model, name)
            _ = model.jsonModel.jsonValue(forProperty: name)
            let dynamic = model.jsonModel.dynamic[dynamicMember: name] as ModelValue
            _ = (dynamic.debugDescription, "\(dynamic)", dynamic == nil)
            touch(value)
        }
        precondition(model.jsonModel.json() == before, "reading changed the JSON of \(model.jsonModel.modelName)")
        _ = model.jsonModel.diagnostics
        do {
            try model.jsonModel.validate()
        } catch {
            _ = error.description
        }
        _ = (model.debugDescription, "\(model)")
        let tight = DescriptionLimits(maxStringLength: 3, maxLineLength: 20, maxLineNesting: 1, maxItems: 2, maxDepth: 2)
        _ = (model.jsonModel.description(limits: tight), model.jsonModel.fullDescription(limits: tight))
        checkOutput(of: model, everyOption: thoroughly)
        if thoroughly {
            _ = defaultModelsCycle ? model.jsonModel.fullDescription(limits: DescriptionLimits(maxDepth: 4)) : model.jsonModel.fullDescription
            var dumped = ""
            // Bounded: a non-optional model property that cycles (`Node.next: Node`) makes a new
            // empty model at every level, which `dump` alone follows forever (and, with two such
            // properties, into a tree that doubles at each level).
            dump(model, to: &dumped, maxDepth: 8, maxItems: 100)
            _ = try? JSONEncoder().encode(model)
            _ = try? JSONEncoder().encode([model, model])
        }

        let copy = model.jsonModel.copy()
        precondition(copy == model && copy.hashValue == model.hashValue, "a copy of \(model.jsonModel.modelName) differs")
        let mutable = model.jsonModel.mutableCopy()
        precondition(mutable == model && mutable.hashValue == model.hashValue, "a mutable copy of \(model.jsonModel.modelName) differs")
        write(into: mutable)
        checkOutput(of: mutable)
        _ = (mutable.jsonModel.hasMutations, mutable.jsonModel.originalJSON, mutable.debugDescription)
        _ = try? mutable.jsonModel.validate()
        let patch = choices.chance(50) ? model.jsonModel.json() : Self.part(of: document, choices: &choices)
        if let merged = try? model.jsonModel.merging(patch) {
            checkOutput(of: merged)
            _ = (merged.debugDescription, try? merged.jsonModel.validate())
        }
        _ = try? mutable.jsonModel.update(with: patch)
        _ = try? mutable.jsonModel.update(with: choices.pick([[:], ["a": nil], .null, [1]]))
        if thoroughly { checkOutput(of: mutable) }
        mutable.jsonModel.clearMutations()
        precondition(!mutable.jsonModel.hasMutations && mutable.jsonModel.json() == before, "clearMutations left writes in \(mutable.jsonModel.modelName)")
        checkOutput(of: mutable)
        precondition(model.jsonModel.json() == before, "writes to a mutable copy of \(model.jsonModel.modelName) reached the model")
    }

    /// Reads into a value: each element of a collection, each nested model's properties.
    mutating func touch(_ value: Any?) {
        guard let value else { return }
        _ = String(describing: value)
        if let nested = value as? JSONModel {
            for name in nested.jsonModel.propertyNames.prefix(4) {
                _ = untypedValue(nested, name)
            }
            for name in inverseNames { _ = nested.jsonModel.inverse(name, as: JSONModel.self) }
            _ = nested.debugDescription
        } else if let collection = value as? any Collection {
            touchElements(of: collection)
        }
    }

    func touchElements<C: Collection>(of collection: C) {
        for element in collection.prefix(4) {
            if let nested = element as? JSONModel {
                for name in nested.jsonModel.propertyNames.prefix(4) { _ = untypedValue(nested, name) }
                for name in inverseNames { _ = nested.jsonModel.inverse(name, as: JSONModel.self) }
            } else {
                _ = String(describing: element)
            }
        }
    }

    /// Output with every option (or, `everyOption` false, one of them) in every form; each
    /// parses back to the value it stands for.
    mutating func checkOutput(of model: JSONModel, everyOption: Bool = false) {
        // Output large in proportion to the document (paths up to index 10,000 pad arrays
        // with nulls) is checked once, so that the fuzzer keeps its pace.
        let large = model.jsonModel.jsonData().count > 20_000
        for raw in everyOption && !large ? Array(0..<8) : [choices.below(8)] {
            let options = JSONOutputOptions(rawValue: raw)
            let value = model.jsonModel.json(options: options)
            for pretty in large ? [choices.chance(50)] : [false, true] {
                let bytes = [UInt8](model.jsonModel.jsonData(options: options, format: pretty ? .prettyPrinted : []))
                guard let parsed = try? JSONDocument(bytes: bytes, options: Self.reparseOptions) else {
                    fatalError("the output of \(model.jsonModel.modelName) does not parse (options \(raw), pretty \(pretty))")
                }
                precondition(parsed.root.value == value, "the output of \(model.jsonModel.modelName) parses back different (options \(raw))")
            }
            _ = model.jsonModel.jsonString(options: options, format: raw % 2 == 0 ? .prettyPrinted : [])
        }
    }

    /// Writes values read from other properties, the property's own, nil, and JSON from the
    /// document, into every property, and into nested models.
    mutating func write(into model: JSONModel) {
        let names = model.jsonModel.propertyNames
        guard !names.isEmpty else { return }
        for name in names {
            let other = choices.pick(names)
            switch choices.below(6) {
            case 0: _ = try? model.jsonModel.set(untypedValue(model, other), forProperty: name)
            case 1: _ = try? model.jsonModel.set(model.jsonModel.jsonValue(forProperty: other), forProperty: name)
            case 2: _ = try? model.jsonModel.set(untypedValue(model, name), forProperty: name)
            case 3: _ = try? model.jsonModel.set(nil, forProperty: name)
            case 4: _ = try? model.jsonModel.set(Self.part(of: document, choices: &choices), forProperty: name)
            default:
                if let nested = untypedValue(model, name) as? JSONModel, let inner = nested.jsonModel.propertyNames.first {
                    _ = try? nested.jsonModel.set(untypedValue(nested, choices.pick(nested.jsonModel.propertyNames)), forProperty: inner)
                    _ = try? nested.jsonModel.set(nil, forProperty: choices.pick(nested.jsonModel.propertyNames))
                } else {
                    _ = try? model.jsonModel.set(choices.pick([1, "x", true, [1], ["id": 1]] as [JSONValue]), forProperty: name)
                }
            }
        }
    }
}

extension Exerciser {
    /// A value from inside the document, a few levels down.
    static func part(of document: JSONValue, choices: inout Choices) -> JSONValue {
        var current = document
        for _ in 0..<choices.below(4) {
            if let object = current.objectValue, !object.isEmpty {
                current = choices.pick(object.map(\.value))
            } else if let array = current.arrayValue, !array.isEmpty {
                current = choices.pick(array)
            } else {
                break
            }
        }
        return current
    }
}

extension JSONValue {
    /// The object, if the value is one.
    var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The elements, if the value is an array.
    var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return Array(elements) }
        return nil
    }

    /// The number as an `Int`, if the value is an integral number in range.
    var intValue: Int? { numberValue?.intValue }
}

/// A declared property's value read without a type, or nil for a name the model does not
/// declare: the by-name read, kept from stopping the program on names the fuzzer makes up.
func untypedValue(_ model: JSONModel, _ name: String) -> Any? {
    guard model.jsonModel.propertyNames.contains(name) else { return nil }
    let value: Any? = model[property: name]
    return value
}
