import Foundation
import Testing

@testable import JSONModelKit
import JSONModelKitTestSupport

/// URLs read from text keep the most recent by their text (`RecentURLs`), process-wide: what a
/// read returns must be what `URL(string:)` returns for the same text, whatever the table held
/// before, with texts that share a set, texts too long to keep, texts `URL(string:)` refuses,
/// and many threads at once; a set keeps the texts it saw last. Tests of what a table keeps use
/// tables of their own, which other tests running meanwhile do not touch.
@Suite("Recent URLs")
struct RecentURLsTests {
    /// A table through both of its doors (the shared one unless another is given), for `text`.
    static func read(_ text: String, in table: RecentURLs = .shared) -> (fromBytes: URL?, fromString: URL?) {
        let bytes = Array(text.utf8)
        let fromBytes = bytes.withUnsafeBufferPointer { table.url(fromUTF8: $0) }
        return (fromBytes, table.url(from: text))
    }

    static let samples = [
        "https://example.com/a", "https://example.com/a?b=1#c", "http://例え.jp/パス", "https://a b.com/x y",
        "mailto:ann@example.com", "/relative/path", "?query", "#fragment", "https://[::1]:8080/", "http://%zz",
        "https://example.com/" + String(repeating: "p", count: RecentURLs.longestText),
        String(repeating: "x", count: RecentURLs.longestText - 1) + "/", ":", "a:", "%",
    ]

    @Test func readsWhatURLStringReadsTheFirstTimeAndAfter() {
        for round in 0..<3 {
            for text in Self.samples {
                let expected = URL(string: text)
                let (fromBytes, fromString) = Self.read(text)
                #expect(fromBytes == expected, "round \(round): \(text)")
                #expect(fromString == expected, "round \(round): \(text)")
                #expect(fromBytes?.absoluteString == expected?.absoluteString, "\(text)")
            }
        }
    }

    @Test func textsThatShareAPlaceEachReadTheirOwnURL() {
        // Far more texts than places: every place is shared, and each text evicts others.
        let texts = (0..<(RecentURLs.shared.placeCount * 4)).map { "https://cdn.example.com/images/\($0).png" }
        for round in 0..<2 {
            for text in texts.shuffled() {
                let (fromBytes, fromString) = Self.read(text)
                #expect(fromBytes?.absoluteString == text, "round \(round)")
                #expect(fromString?.absoluteString == text, "round \(round)")
            }
        }
        // Texts that differ only after their first words, or only in length.
        let near = ["https://example.com/aaaaaaaa", "https://example.com/aaaaaaab", "https://example.com/aaaaaaa",
                    "https://example.com/aaaaaaaaa"]
        for _ in 0..<3 {
            for text in near { #expect(Self.read(text).fromBytes?.absoluteString == text) }
        }
    }

    /// The set of `text` in `table`.
    static func set(of text: String, in table: RecentURLs) -> Int {
        Array(text.utf8).withUnsafeBufferPointer { table.set(of: RecentURLs.hash($0)) }
    }

    @Test func aSetKeepsTheTextsItSawLastAndPushesOutTheOneUnusedLongest() throws {
        let table = RecentURLs(setCount: 8)
        // Texts of one set, found by their hashes: one more than the set holds, and two spare.
        let set = Self.set(of: "https://set.example.com/", in: table)
        let sameSet = Array((0..<10_000).lazy.map { "https://set.example.com/\($0)" }.filter { Self.set(of: $0, in: table) == set }
            .prefix(RecentURLs.wayCount + 3))
        try #require(sameSet.count == RecentURLs.wayCount + 3)
        let filling = Array(sameSet.prefix(RecentURLs.wayCount + 1))
        for text in filling { #expect(Self.read(text, in: table).fromBytes?.absoluteString == text) }
        // The first read is the one pushed out; the others are found, and finding one moves it
        // to the front, so the next text kept pushes out the one unused longest instead.
        #expect(!table.keeps(filling[0]))
        #expect(table.keeps(filling[1]))
        #expect(Self.read(sameSet[RecentURLs.wayCount + 1], in: table).fromString?.absoluteString == sameSet[RecentURLs.wayCount + 1])
        #expect(table.keeps(filling[1]))
        #expect(!table.keeps(filling[2]))
        // Finding the rest moves each to the front in turn, which leaves filling[1] last; the
        // spare, found again, goes to the front, and a new text pushes filling[1] out.
        for text in filling.dropFirst(3) { #expect(table.keeps(text), "\(text)") }
        _ = Self.read(sameSet[RecentURLs.wayCount + 1], in: table)
        _ = Self.read(sameSet[RecentURLs.wayCount + 2], in: table)
        #expect(!table.keeps(filling[1]))
        for text in filling.dropFirst(3) + sameSet.suffix(2) { #expect(table.keeps(text), "\(text)") }
        // Other sets are untouched.
        let other = (0..<10_000).lazy.map { "https://other.example.com/\($0)" }.first { Self.set(of: $0, in: table) != set }!
        _ = Self.read(other, in: table)
        #expect(table.keeps(other))
        #expect(table.keeps(filling[4]))
    }

    @Test func aWorkingSetOfAQuarterOfThePlacesIsKeptWhole() {
        // Distinct texts read as a payload repeats them: each is kept from the first round on.
        let table = RecentURLs(setCount: 128)
        let texts = (0..<(table.placeCount / 4)).map { "https://pbs.example.com/profile_images/\($0 * 7_919)/photo.jpg" }
        for _ in 0..<2 {
            for text in texts { #expect(Self.read(text, in: table).fromString?.absoluteString == text) }
        }
        #expect(texts.filter(table.keeps).count == texts.count)
    }

    @Test func theSharedTableMatchesWhatItsDocumentationSays() {
        #expect(RecentURLs.shared.placeCount == 1_024)
        #expect(RecentURLs.longestText == 256)
    }

    @Test func equalTextsHashEquallyAndTheHashReadsEveryByte() {
        let base = Array("https://example.com/path/to/a/resource?x=1".utf8)
        let hash = base.withUnsafeBufferPointer(RecentURLs.hash)
        #expect(Array(base).withUnsafeBufferPointer(RecentURLs.hash) == hash)
        var differing = 0
        for place in base.indices {
            var changed = base
            changed[place] ^= 0x01
            if changed.withUnsafeBufferPointer(RecentURLs.hash) != hash { differing += 1 }
        }
        #expect(differing == base.count)
    }

    final class Profile: JSONModel, @unchecked Sendable {
        override class func properties(_ p: PropertyRegistrar) {
            p.avatar(URL?.self)
            p.links([URL].self)
        }
    }

    @Test func modelsReadTheURLsOfTheirJSONWhetherOrNotTheTextWasSeen() throws {
        let json = #"{"avatar": "https://img.example.com/u/1.png", "links": ["https://img.example.com/u/1.png", "https:\/\/img.example.com\/u\/1.png", "https://x.example.com/"]}"#
        for _ in 0..<3 {
            let profile = try Profile(json: json)
            let avatar: URL? = profile[property: "avatar"]
            let links: [URL] = profile[property: "links"]
            #expect(avatar == URL(string: "https://img.example.com/u/1.png"))
            #expect(links.map(\.absoluteString) == ["https://img.example.com/u/1.png", "https://img.example.com/u/1.png", "https://x.example.com/"])
        }
        // Text URL(string:) refuses is a diagnostic and the default, kept or not.
        for _ in 0..<2 {
            let bad = try Profile(json: #"{"avatar": "http://%zz"}"#)
            let avatar: URL? = bad[property: "avatar"]
            #expect(avatar == URL(string: "http://%zz"))
        }
    }
}

extension StressTests {
    /// Eight threads read overlapping URL texts, so that lookups, parses and the replacement of a
    /// place's URL race; every read must still be the text's own URL.
    @Test func recentURLsFromEightThreads() {
        let texts = (0..<(RecentURLs.shared.placeCount / 2)).map { "https://race.example.com/\($0 % 97)/\($0)" }
        Self.hammer(rounds: 50) { thread, round in
            for index in stride(from: (thread * 7 + round) % texts.count, to: texts.count, by: 3) {
                let text = texts[index]
                let url = text.utf8.withContiguousStorageIfAvailable { RecentURLs.shared.url(fromUTF8: $0) } ?? nil
                #expect(url?.absoluteString == text)
                #expect(RecentURLs.shared.url(from: text)?.absoluteString == text)
            }
        }
    }

    /// Eight threads read more texts than a table of one set holds, so that every read finds,
    /// moves or pushes out the others' texts; every read must still be the text's own URL.
    @Test func recentURLsOfOneSetFromEightThreads() {
        let table = RecentURLs(setCount: 1)
        let texts = (0..<(RecentURLs.wayCount * 3)).map { "https://one-set.example.com/\($0)" }
        Self.hammer(rounds: 50) { thread, round in
            for index in stride(from: (thread + round) % 5, to: texts.count * 4, by: 5) {
                let text = texts[index % texts.count]
                let url = text.utf8.withContiguousStorageIfAvailable { table.url(fromUTF8: $0) } ?? nil
                #expect(url?.absoluteString == text)
                #expect(table.url(from: text)?.absoluteString == text)
            }
        }
    }
}
