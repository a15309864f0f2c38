import Foundation
import Testing
@testable import JSONModelKit
@testable import JSONModelKitCore
import JSONModelKitTestSupport

// Models that contain themselves, walked at the deepest nesting the parser accepts by default
// (511 objects inside the root, `JSONParseOptions.maxDepth` 512), on a 512 KiB stack.
//
// Each walk either uses an explicit stack or stops at a documented limit with an error or a
// marker; none may crash. The stack each uses is measured (`StackUsage.swift`) and printed, in
// debug and release builds (`swift test -c release --filter DeepModel`).

/// A model whose optional property has its own class.
final class DeepNode: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.name(String.self)
        p.count(Int.self)
        p.child(DeepNode?.self)
        p.kids([DeepNode].self)
        p.byName([String: DeepNode].self, jsonPath: "by_name")
        p.hidden(String?.self, serialize: false)
    }
}

/// A model whose non-optional properties have its own class: the default of each (an empty
/// model) has defaults of its own, without end.
final class SelfTypedNode: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.name(String.self)
        p.next(SelfTypedNode.self)
        p.left(SelfTypedNode.self)
        p.right(SelfTypedNode.self)
        p.more(SelfTypedNode.self)
    }
}

/// A model that holds itself at two overlapping paths, one inside the other.
final class OverlappingNode: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.outer(OverlappingNode?.self, jsonPath: "0.0")
        p.inner(OverlappingNode?.self, jsonPath: "0.0.0")
        p.n(Int?.self)
    }
}

@Suite("Deep models on a small stack", .timeLimit(.minutes(10)))
struct DeepModelTests {
    /// The deepest nesting the parser accepts by default: the root and 511 objects inside it.
    static let depth = JSONParseOptions().maxDepth

    /// `{"name": "n0", "count": 0, "extra": 0, "child": {"name": "n1", …}}`, nested `depth`
    /// levels: `depth - 2` objects, the innermost with an array of one kid.
    ///
    /// Every object but the innermost has a key no property reads (`extra`) and one declared
    /// `serialize: false` (`hidden`); the innermost has `count: "x"`, which does not convert,
    /// and so has its kid (`"y"`).
    static func chainText(depth: Int = depth) -> String {
        var text = ""
        for level in 0..<(depth - 3) {
            text += #"{"name":"n\#(level)","count":\#(level),"extra":\#(level),"hidden":"h","child":"#
        }
        text += #"{"name":"leaf","count":"x","kids":[{"name":"kid","count":"y"}]}"#
        text += String(repeating: "}", count: depth - 3)
        return text
    }

    /// The path of the innermost object: `child` `depth - 3` times.
    static var leafPath: JSONPath { JSONPath(Array(repeating: .key("child"), count: depth - 3)) }

    /// A path with runs of a repeated segment written once with a count (`child×509.count`),
    /// so that failures print short.
    static func short(_ path: JSONPath) -> String {
        var parts: [String] = []
        var run: (segment: JSONPath.Segment, count: Int)?
        func flush() {
            guard let (segment, count) = run else { return }
            let text = JSONPath([segment]).description
            parts.append(count > 1 ? "\(text)×\(count)" : text)
        }
        for segment in path.segments {
            if run?.segment == segment {
                run!.count += 1
            } else {
                flush()
                run = (segment, 1)
            }
        }
        flush()
        return parts.reduce("") { $0.isEmpty || $1.hasPrefix("[") ? $0 + $1 : $0 + "." + $1 }
    }

    /// The schema twin of `DeepNode`, in a registry of its own.
    static let schemaRegistry: ModelRegistry = {
        let registry = ModelRegistry()
        try! registry.register(ModelSchema(json: #"""
            {"models": [{"name": "SchemaNode", "properties": [
                {"name": "name", "type": "String"},
                {"name": "count", "type": "Int"},
                {"name": "child", "type": "SchemaNode?"},
                {"name": "kids", "type": "[SchemaNode]"}]}]}
            """#))
        return registry
    }()

    /// Runs `body` on a 512 KiB thread and, separately, measures the stack it uses; prints the
    /// measurement and returns the result of the small-stack run.
    static func onSmallStack<T: Sendable>(_ label: String, _ body: @escaping @Sendable () -> T) -> T {
        let (_, bytes) = stackBytesUsed(body)
        #if DEBUG
        let build = "debug"
        #else
        let build = "release"
        #endif
        print("deep models (\(build)): \(label): \(bytes / 1024) KiB of stack")
        return onSmallStackThread(body)
    }

    // MARK: - Validation

    /// The paths of the diagnostics `validate()` throws, or none.
    static func validationPaths(_ model: JSONModel) -> [String] {
        do {
            try model.jsonModel.validate()
            return []
        } catch {
            return error.diagnostics.map { short($0.path) }
        }
    }

    /// Regression: `validate()` converted each nested model's properties inside its parent's
    /// conversion, about 3.4 KiB of stack per level in a debug build (1.8 KiB in release), so
    /// 170 levels (300 in release) overflowed a 512 KiB thread. It now keeps the models still
    /// to visit on a list of its own.
    @Test func validateSelfReferencingModelAtTheParserDepthLimit() {
        let expected = ["child×509.count", "child×509.kids[0].count"]
        let text = Self.chainText()
        let immutable = Self.onSmallStack("validate() at depth \(Self.depth)") { () -> [String] in
            guard let model = try? DeepNode(json: text) else { return ["no model"] }
            return Self.validationPaths(model)
        }
        #expect(immutable == expected)
        let mutable = Self.onSmallStack("validate() of a mutable model at depth \(Self.depth)") { () -> [String] in
            guard let model = try? DeepNode(json: text, options: .mutable) else { return ["no model"] }
            return Self.validationPaths(model)
        }
        #expect(mutable == expected)
        let validating = Self.onSmallStack("options: .validating at depth \(Self.depth)") { () -> [String] in
            do throws(JSONModelError) {
                _ = try DeepNode(json: text, options: .validating)
                return []
            } catch .validationFailed(let error) {
                return error.diagnostics.map { Self.short($0.path) }
            } catch {
                return ["\(error)"]
            }
        }
        #expect(validating == expected)
        let schema = Self.onSmallStack("validate() of a schema model at depth \(Self.depth)") { () -> [String] in
            guard let model = try? Self.schemaRegistry.makeModel(named: "SchemaNode", json: Data(text.utf8)) else {
                return ["no model"]
            }
            return Self.validationPaths(model)
        }
        #expect(schema == expected)
    }

    /// Validation visits nested models in the order the recursive version did: each property's
    /// own problems, then those of the models it holds, one model at a time, before the next
    /// property; and it fills every cache on the way.
    @Test func validationKeepsItsOrderAndFillsCaches() throws {
        let json = #"""
            {"count": "a",
             "child": {"count": "b", "child": {"count": "c"}, "kids": [{"count": "d"}], "name": {}},
             "kids": [{"count": "e", "kids": [{"count": "f"}]}, 7, {"count": "g"}],
             "by_name": {"x": {"count": "h"}, "y": {"count": "i"}},
             "name": []}
            """#
        let model = try DeepNode(json: json)
        do {
            try model.jsonModel.validate()
            Issue.record("validated")
        } catch {
            // Properties in declaration order: name, count, child, kids, byName.
            #expect(error.diagnostics.map(\.path.description) == [
                "name", "count", "child.name", "child.count", "child.child.count", "child.kids[0].count",
                "kids[1]", "kids[0].count", "kids[0].kids[0].count", "kids[2].count",
                "by_name.x.count", "by_name.y.count",
            ])
        }
        #expect(model.cachedPropertyCount == DeepNode.modelMetadata.properties.count)
        let child: DeepNode? = model.child
        #expect(child?.cachedPropertyCount == DeepNode.modelMetadata.properties.count)
        // Its own, then those of the nested models validation built for it, by path from it.
        #expect(child?.jsonModel.diagnostics.map(\.path.description) == ["name", "count", "child.count", "kids[0].count"])
    }

    // MARK: - Releasing models

    /// Regression: a model freed the models it had cached inside its own `deinit`, and they
    /// theirs, about 440 bytes of stack per level in a debug build, so a chain of a thousand
    /// models overflowed a 512 KiB stack when the first was freed. Models now hand what they
    /// cached to `IterativeRelease`, which frees it from a loop.
    @Test func releasingDeepChainsOfModelsDoesNotRecurse() {
        let levels = 100_000
        let options = ModelOptions(parseOptions: JSONParseOptions(maxDepth: levels + 2))
        let childText = String(repeating: #"{"child":"#, count: levels) + "{}" + String(repeating: "}", count: levels)
        let kidsText = String(repeating: #"{"kids":["#, count: levels / 2) + "{}" + String(repeating: "]}", count: levels / 2)
        let outcome = Self.onSmallStack("100,000 nested models read, validated and freed") { () -> [Int] in
            var counts: [Int] = []
            // Every level read, so each model caches the next.
            if let root = try? DeepNode(json: childText, options: options) {
                var current: DeepNode? = root
                var count = 0
                while let node = current {
                    current = node.child
                    count += 1
                }
                counts.append(count)
            }
            // Through lazy arrays: each level's array holds the next model.
            if let root = try? DeepNode(json: kidsText, options: options) {
                var current: DeepNode? = root
                var count = 0
                while let node = current {
                    let kids: [DeepNode] = node.kids
                    current = kids.first
                    count += 1
                }
                counts.append(count)
            }
            // Validation caches every property of every level, mutable models too.
            for mutable in [false, true] {
                if let root = try? DeepNode(json: childText, options: ModelOptions(mutable: mutable, parseOptions: options.parseOptions)) {
                    counts.append(Self.validationPaths(root).count)
                }
            }
            return counts
        }
        #expect(outcome == [levels + 1, levels / 2 + 1, 0, 0])
    }

    // MARK: - Releasing values

    /// How many arrays and objects deep `value` goes down its first elements and members.
    static func levels(of value: JSONValue) -> Int {
        var count = 0
        var current = value
        while true {
            switch current {
            case .array(let elements) where !elements.isEmpty: current = elements[0]
            case .object(let object) where !object.isEmpty: current = object.members[0].value
            case .array, .object: return count + 1
            default: return count
            }
            count += 1
        }
    }

    /// Regression: releasing a `JSONValue` freed its nested arrays and objects one inside the
    /// other (Swift's `Array` storage), about 210 bytes of stack per level for arrays and 260
    /// for objects in a debug build: 2,500 levels overflowed a 512 KiB thread, and 50,000 (a
    /// document parsed with a raised `maxDepth`) an 8 MiB one. `JSONArray` and `JSONObject` now
    /// keep their elements in storage whose `deinit` hands nested containers to a loop.
    @Test func releasingDeepValuesDoesNotRecurse() {
        let levels = 1_000_000
        let parsedLevels = 50_000
        let options = JSONParseOptions(maxDepth: parsedLevels + 1)
        let arraysText = String(repeating: "[", count: parsedLevels) + String(repeating: "]", count: parsedLevels)
        let objectsText = String(repeating: #"{"child":"#, count: parsedLevels) + "{}" + String(repeating: "}", count: parsedLevels)
        let outcome = Self.onSmallStack("JSON values 1,000,000 levels deep built, copied and freed") { () -> [Int] in
            var counts: [Int] = []
            var arrays = JSONValue.null
            var objects = JSONValue.null
            var mixed = JSONValue.null
            for level in 0..<levels {
                arrays = .array([arrays])
                objects = ["a": objects, "n": JSONValue(level)]
                mixed = level.isMultiple(of: 2) ? .array([mixed, true]) : ["m": mixed]
            }
            counts += [Self.levels(of: arrays), Self.levels(of: objects), Self.levels(of: mixed)]
            // A copy shares the storage: freeing the original frees nothing the copy holds.
            let copy = arrays
            arrays = .null
            objects = .null
            counts.append(Self.levels(of: copy))
            // Changing a copy copies the levels on the way down only; the original keeps its value.
            var changed = mixed
            changed[JSONPath("m[1]")] = "changed"
            counts.append(Self.levels(of: changed))
            counts.append(changed[JSONPath("m[1]")] == "changed" && mixed[JSONPath("m[1]")] == true ? 1 : 0)
            mixed = .null
            counts.append(Self.levels(of: changed))
            // Parsed with a raised limit, turned into a value, and read through a model.
            if let document = try? JSONDocument(string: arraysText, options: options) {
                counts.append(Self.levels(of: document.root.value))
            }
            if let document = try? JSONDocument(string: objectsText, options: options),
                let model = try? DeepNode(json: document.root.value)
            {
                counts.append(Self.levels(of: model.jsonModel.json(options: .onlyDeclared)))
                var current: DeepNode? = model
                var count = 0
                while let node = current {
                    current = node.child
                    count += 1
                }
                counts.append(count)
            }
            return counts
        }
        #expect(outcome == [levels, levels, levels, levels, levels, 1, levels, parsedLevels, parsedLevels + 1, parsedLevels + 1])
    }

    // MARK: - Output, equality, merging

    /// The keys of each object down a chain of `child` members, sorted, one line per distinct
    /// set with the number of levels that have it: `3× count,name`.
    static func keysByLevel(_ value: JSONValue) -> [String] {
        var lines: [(keys: String, count: Int)] = []
        var current: JSONValue? = value
        while case .object(let object)? = current {
            let keys = Set(object.keys).sorted().joined(separator: ",")
            if lines.last?.keys == keys { lines[lines.count - 1].count += 1 } else { lines.append((keys, 1)) }
            current = object["child"]
        }
        return lines.map { "\($0.count)× \($0.keys)" }
    }

    /// Regression: `json(options:)` shaped each nested model inside its parent's shaping, 3.5 KiB
    /// of stack per level in a debug build (670 bytes in release). It now keeps a stack of frames.
    @Test func outputOptionsAtTheParserDepthLimit() {
        let text = Self.chainText()
        let outcome = Self.onSmallStack("json(options:) with every option at depth \(Self.depth)") { () -> [[String]] in
            guard let model = try? DeepNode(json: text) else { return [["no model"]] }
            let options: [JSONOutputOptions] = [[], .onlyDeclared, .includeNulls, .omitNonSerialized, [.onlyDeclared, .includeNulls, .omitNonSerialized]]
            return options.map { Self.keysByLevel(model.jsonModel.json(options: $0)) }
        }
        let objects = Self.depth - 2
        #expect(outcome == [
            ["\(objects - 1)× child,count,extra,hidden,name", "1× count,kids,name"],
            ["\(objects - 1)× child,count,hidden,name", "1× count,kids,name"],
            ["\(objects - 1)× by_name,child,count,extra,hidden,kids,name", "1× by_name,child,count,hidden,kids,name"],
            ["\(objects - 1)× child,count,extra,name", "1× count,kids,name"],
            ["\(objects)× by_name,child,count,kids,name"],
        ])
    }

    /// `==` and hashing compare the models' JSON, which is compared and hashed without
    /// recursion; the JSON they build is freed without recursion too.
    /// Output shapes each nested value once as each class: a value that shaping another reached
    /// already, as another property's, is left as that shaping made it. Shaping it again for every way of reaching it
    /// took time and memory exponential in the depth (90 levels here).
    @Test func outputShapesAValueInsideAnotherOnlyOnce() throws {
        var json = #"{"n": 90}"#
        for level in (0..<90).reversed() { json = #"{"n": \#(level), "0": \#(json)}"# }
        let model = try OverlappingNode(json: json)
        func count(_ value: JSONValue) -> Int {
            switch value {
            case .object(let object): 1 + object.reduce(0) { $0 + count($1.value) }
            case .array(let array): 1 + array.reduce(0) { $0 + count($1) }
            default: 1
            }
        }
        let input = count(model.jsonModel.json())
        for options: JSONOutputOptions in [[], [.includeNulls], [.onlyDeclared, .includeNulls]] {
            let output = model.jsonModel.json(options: options)
            #expect(count(output) <= 2 * input, "\(options)")
            #expect(output["0"]?["0"]?["n"] == 2)
        }
    }

    @Test func equalityAndHashingAtTheParserDepthLimit() {
        let text = Self.chainText()
        let outcome = Self.onSmallStack("== and hashing at depth \(Self.depth)") { () -> [Bool] in
            guard let a = try? DeepNode(json: text), let b = try? DeepNode(json: text, options: .mutable),
                let c = try? DeepNode(json: Self.chainText().replacingOccurrences(of: #""leaf""#, with: #""other""#))
            else { return [] }
            return [a == b, a.hashValue == b.hashValue, a != c, Set([a, b, c]).count == 2]
        }
        #expect(outcome == [true, true, true, true])
    }

    /// Regression: merging recursed once per level of the patch (720 bytes of stack per level in
    /// a debug build); it now keeps a stack of frames.
    @Test func mergingAPatchAtTheParserDepthLimit() {
        let text = Self.chainText()
        let levels = Self.depth - 3
        let patch = String(repeating: #"{"child":"#, count: levels) + #"{"name":"patched","count":null}"#
            + String(repeating: "}", count: levels)
        let outcome = Self.onSmallStack("merging(_:) and update(with:) at depth \(Self.depth)") { () -> [String] in
            guard let model = try? DeepNode(json: text), let mutable = try? DeepNode(json: text, options: .mutable),
                let patchValue = try? JSONDocument(string: patch).root.value,
                let merged = try? model.jsonModel.merging(patchValue)
            else { return ["no model"] }
            guard (try? mutable.jsonModel.update(with: patchValue)) != nil else { return ["no update"] }
            return [merged, mutable].map { model in
                var current: DeepNode = model
                var count = 0
                while let next: DeepNode = current.child {
                    current = next
                    count += 1
                }
                let kids: [DeepNode] = current.kids
                let name: String = current.name
                let number: Int = current.count
                return "\(count) \(name) \(number) \(kids.count) \(Self.keysByLevel(model.jsonModel.json()).joined(separator: "; "))"
            }
        }
        let objects = Self.depth - 2
        let summary = "\(levels) patched 0 1 \(objects - 1)× child,count,extra,hidden,name; 1× kids,name"
        #expect(outcome == [summary, summary])
    }

    // MARK: - Codable

    struct Envelope: Codable {
        var node: DeepNode
    }

    /// `{"child": {"child": … {"name": "leaf"}}}`, `levels` objects deep.
    static func childChain(levels: Int) -> String {
        String(repeating: #"{"child":"#, count: levels - 1) + #"{"name":"leaf"}"# + String(repeating: "}", count: levels - 1)
    }

    /// Regression: `Codable` recursed once per level inside Foundation's coders, about 1.5 KiB of
    /// stack per level in an optimized build (3.1 KiB in a debug one), so encoding or decoding a
    /// model 511 levels deep overflowed a 512 KiB thread. `JSONValue` now counts the arrays and
    /// objects it is inside on the thread and refuses more than `codingDepthLimit` with an error
    /// that says so; up to the limit, values round-trip.
    @Test func codableRefusesNestingBeyondItsLimitWithAnError() {
        let limit = JSONValue.codingDepthLimit
        let deepest = Self.childChain(levels: limit)
        let tooDeep = Self.childChain(levels: limit + 1)
        let outcome = Self.onSmallStack("Codable at depth \(limit) and refused beyond it") { () -> [String] in
            var results: [String] = []
            // Encoding: the deepest accepted round-trips, one more level is an error.
            do {
                let model = try DeepNode(json: deepest)
                let data = try JSONEncoder().encode(Envelope(node: model))
                let decoded = try JSONDecoder().decode(Envelope.self, from: data)
                results.append(decoded.node == model ? "round trip" : "changed")
            } catch {
                results.append("\(error)")
            }
            do {
                _ = try JSONEncoder().encode(try DeepNode(json: tooDeep))
                results.append("encoded")
            } catch EncodingError.invalidValue(_, let context) {
                results.append(context.debugDescription.hasPrefix("JSON nested deeper than \(limit) arrays and objects") ? "encoding refused" : context.debugDescription)
            } catch {
                results.append("\(error)")
            }
            // Decoding: the parser's deepest document is refused, not a crash.
            for text in [tooDeep, Self.chainText()] {
                do {
                    _ = try JSONDecoder().decode(DeepNode.self, from: Data(text.utf8))
                    results.append("decoded")
                } catch DecodingError.dataCorrupted(let context) {
                    results.append(context.debugDescription.hasPrefix("JSON nested deeper than \(limit) arrays and objects") ? "decoding refused" : context.debugDescription)
                } catch {
                    results.append("\(error)")
                }
            }
            do {
                _ = try JSONEncoder().encode(try DeepNode(json: Self.chainText()))
                results.append("encoded")
            } catch is EncodingError {
                results.append("encoding refused")
            } catch {
                results.append("\(error)")
            }
            return results
        }
        #expect(outcome == ["round trip", "encoding refused", "decoding refused", "decoding refused", "encoding refused"])
    }

    /// After a refused value the count of levels is back to zero: the next value encodes.
    @Test func codableLevelsAreCountedPerThreadAndUnwound() throws {
        let tooDeep = try DeepNode(json: Self.childChain(levels: JSONValue.codingDepthLimit + 1))
        #expect(throws: EncodingError.self) { try JSONEncoder().encode(tooDeep) }
        let deepest = try DeepNode(json: Self.childChain(levels: JSONValue.codingDepthLimit))
        #expect(throws: Never.self) { try JSONEncoder().encode(deepest) }
        #expect(ThreadState.current.codingDepth == 0)
    }

    // MARK: - Descriptions

    /// Descriptions open a bounded number of levels; a limit above `deepestNesting` counts as it.
    @Test func descriptionsAtTheParserDepthLimit() {
        let text = Self.chainText()
        let outcome = Self.onSmallStack("descriptions and dump at depth \(Self.depth)") { () -> [Int] in
            guard let model = try? DeepNode(json: text) else { return [] }
            var dumped = ""
            dump(model, to: &dumped)
            let unbounded = DescriptionLimits(maxLineLength: 1_000_000, maxLineNesting: 1_000, maxDepth: 1_000)
            let line = model.jsonModel.description(limits: unbounded)
            let full = model.jsonModel.fullDescription(limits: unbounded)
            return [
                dumped.components(separatedBy: "▿ child: DeepNode(").count - 1,
                line.components(separatedBy: "child: DeepNode(").count - 1,
                full.components(separatedBy: "child: DeepNode(").count - 1,
                model.debugDescription.isEmpty || model.debugDescription.isEmpty || model.jsonModel.fullDescription.isEmpty ? 0 : 1,
            ]
        }
        // dump opens every level (509 nested models under the root); the descriptions stop at
        // `deepestNesting` (the one-line one then writes `DeepNode(…)`).
        #expect(outcome == [Self.depth - 3, DescriptionLimits.deepestNesting + 1, DescriptionLimits.deepestNesting, 1])
    }

    // MARK: - Defaults that contain themselves

    /// Regression: `dump` of a model with a non-optional property of its own class opened the
    /// property's default (an empty model), whose mirror opened its default, without end: it
    /// ran for about a minute making models, then overflowed the stack. A model property with
    /// nothing in the JSON now shows in a mirror as one line marked `(default)`, not opened.
    @Test func dumpOfSelfTypedDefaultsStops() {
        let text = onSmallStackThread { () -> String in
            guard let model = try? SelfTypedNode(json: #"{"name": "root", "next": {"name": "n1"}}"#) else { return "" }
            var text = ""
            dump(model, to: &text)
            // A model's own line is its debugDescription, every property: cut to its name.
            return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.contains("▿") ? String(line.prefix { $0 != "(" }) : String(line)
            }.joined(separator: "\n")
        }
        #expect(text == """
            ▿ SelfTypedNode
              - name: "root"
              ▿ next: SelfTypedNode
                - name: "n1"
                - next: SelfTypedNode() (default)
                - left: SelfTypedNode() (default)
                - right: SelfTypedNode() (default)
                - more: SelfTypedNode() (default)
              - left: SelfTypedNode() (default)
              - right: SelfTypedNode() (default)
              - more: SelfTypedNode() (default)

            """)
    }

    /// The other descriptions do not make defaults of defaults either: `description` passes over
    /// properties with nothing in the JSON, `fullDescription` opens a default but writes a
    /// default inside it on one line, `debugDescription` stops at its nesting (and its far larger line length).
    /// Reads, validation and output make one default at a time, as asked.
    @Test func descriptionsOfSelfTypedDefaultsStop() throws {
        let outcome = onSmallStackThread { () -> [String] in
            guard let empty = try? SelfTypedNode(json: "{}"),
                let named = try? SelfTypedNode(json: #"{"left": {"right": {"name": "deep"}}}"#)
            else { return [] }
            let mirror = Mirror(reflecting: empty)
            let next: SelfTypedNode = empty.next
            let nextOfNext: SelfTypedNode = next.next
            let name: String = nextOfNext.name
            return [
                empty.debugDescription, named.debugDescription, "\(empty.debugDescription.count <= DescriptionLimits.default.maxLineLength)",
                "\(mirror.children.count)", "[\(name)]", "\(Self.validationPaths(empty).count)",
                empty.jsonModel.jsonString(options: .includeNulls), empty.jsonModel.fullDescription, named.jsonModel.fullDescription,
            ]
        }
        #expect(outcome.prefix(7) == [
            "SelfTypedNode()", #"SelfTypedNode(left: SelfTypedNode(right: SelfTypedNode(name: "deep")))"#, "true", "5", "[]", "0",
            #"{"name":null,"next":null,"left":null,"right":null,"more":null}"#,
        ])
        let opened = """
            SelfTypedNode(
                name: "",
                next: SelfTypedNode(),
                left: SelfTypedNode(),
                right: SelfTypedNode(),
                more: SelfTypedNode()
              )
            """
        #expect(outcome.count == 9 && outcome[7] == """
            SelfTypedNode(
              name: "",
              next: \(opened),
              left: \(opened),
              right: \(opened),
              more: \(opened)
            )
            """)
        #expect(outcome.count == 9 && outcome[8].contains(#"name: "deep","#))
    }
}
