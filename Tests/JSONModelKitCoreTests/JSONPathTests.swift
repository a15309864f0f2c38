import Testing
@testable import JSONModelKitCore
import JSONModelKitTestSupport

@Suite("JSONPath")
struct JSONPathTests {
    @Test func dottedWithIndices() {
        let path: JSONPath = "items[3].owner.id"
        #expect(path.segments == [.key("items"), .index(3), .key("owner"), .key("id")])
        #expect(path.description == "items[3].owner.id")
    }

    @Test func quotedKeys() {
        let path = JSONPath(parsing: #"meta["build.number"][0]["a\"b\\c"]"#)
        #expect(path.segments == [.key("meta"), .key("build.number"), .index(0), .key(#"a"b\c"#)])
        #expect(path.description == #"meta["build.number"][0]["a\"b\\c"]"#)
    }

    @Test func literals() {
        let listed: JSONPath = ["items", 3, "owner"]
        #expect(listed == "items[3].owner")
        let segment: JSONPath.Segment = 7
        #expect(segment == .index(7))
        let key: JSONPath.Segment = "name"
        #expect(key == .key("name"))
        #expect(JSONPath.Segment.key("a.b").description == #"["a.b"]"#)
        #expect(JSONPath.Segment.index(2).description == "[2]")
    }

    @Test func root() {
        #expect(JSONPath([]).description == "$")
        #expect(JSONPath(parsing: "").isEmpty)
        #expect(JSONPath(parsing: "$").isEmpty)
        #expect(JSONPath.root.isEmpty)
        #expect(JSONPath.root.parent == nil)
        #expect(JSONPath([.key("$")]).description == #"["$"]"#)
    }

    @Test(arguments: [
        ("", [JSONPath.Segment]()),
        ("a", [.key("a")]),
        ("a..b", [.key("a"), .key(""), .key("b")]),
        ("a.", [.key("a"), .key("")]),
        (".a", [.key(""), .key("a")]),
        (".", [.key(""), .key("")]),
        ("a[", [.key("a[")]),
        ("[x]", [.key("[x]")]),
        ("[", [.key("[")]),
        ("[]", [.key("[]")]),
        ("a]", [.key("a]")]),
        ("a[1]b", [.key("a"), .index(1), .key("b")]),
        ("[1][2]", [.index(1), .index(2)]),
        ("a.[1]", [.key("a"), .index(1)]),
        ("0", [.key("0")]),
        ("[-1]", [.index(-1)]),
        ("[007]", [.index(7)]),
        ("a[99999999999999999999]", [.key("a"), .index(Int.max)]),
        ("a[-99999999999999999999]", [.key("a"), .index(Int.min)]),
        (#"a["b"#, [.key(#"a["b"#)]),
        (#"["a\x"]"#, [.key(#"["a\x"]"#)]),
        (#"[""]"#, [.key("")]),
        ("a b.c d", [.key("a b"), .key("c d")]),
        ("ünï.😀[2]", [.key("ünï"), .key("😀"), .index(2)]),
        ("$.a", [.key("$"), .key("a")]),
        ("$a", [.key("$a")]),
    ])
    func oddInputs(_ text: String, _ expected: [JSONPath.Segment]) {
        #expect(JSONPath(parsing: text).segments == expected)
    }

    @Test(arguments: [
        [JSONPath.Segment](),
        [.key("")],
        [.key("$")],
        [.key("a.b")],
        [.key("[")],
        [.key("]")],
        [.key("\"")],
        [.key("\\")],
        [.key(#"\""#)],
        [.key("a"), .key(""), .key("b")],
        [.index(0)],
        [.index(-1)],
        [.index(Int.min)],
        [.index(Int.max)],
        [.key(""), .index(1), .key("")],
        [.key("0"), .index(0)],
        [.key("x y"), .key("ü"), .key("😀")],
        [.key("[1]")],
        [.key(#"["a"]"#)],
        [.key("$"), .key("$")],
    ])
    func descriptionRoundTrips(_ segments: [JSONPath.Segment]) {
        let path = JSONPath(segments)
        #expect(JSONPath(parsing: path.description) == path, "\(path)")
    }

    @Test func randomPathsRoundTrip() {
        var random = SplitMix64(seed: 42)
        let alphabet: [Character] = ["a", "b", ".", "[", "]", "\"", "\\", "$", "0", "1", "-", " ", "é"]
        for _ in 0..<2000 {
            var segments: [JSONPath.Segment] = []
            for _ in 0..<Int(random.next() % 5) {
                if random.next() % 3 == 0 {
                    segments.append(.index(Int(truncatingIfNeeded: random.next()) % 1000))
                } else {
                    let length = Int(random.next() % 5)
                    let key = String((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
                    segments.append(.key(key))
                }
            }
            let path = JSONPath(segments)
            #expect(JSONPath(parsing: path.description) == path, "\(path)")
        }
    }

    @Test func appendingAndParent() {
        let base: JSONPath = "items"
        let longer = base.appending(2).appending("id")
        #expect(longer.description == "items[2].id")
        #expect(longer.parent == "items[2]")
        #expect(base.appending(contentsOf: "a.b").description == "items.a.b")
        var mutable = JSONPath.root
        mutable.append("x")
        #expect(mutable.description == "x")
        #expect(!mutable.isEmpty)
        #expect(Set<JSONPath>(["a.b", ["a", "b"], "a[0]"]).count == 2)
    }
}
