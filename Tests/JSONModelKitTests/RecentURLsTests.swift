import Foundation
import Testing

@testable import JSONModelKit
import JSONModelKitTestSupport

/// URLs read from text keep the most recent by their text (`RecentURLs`), process-wide: what a
/// read returns must be what `URL(string:)` returns for the same text, whatever the table held
/// before, with texts that share a place, texts too long to keep, texts `URL(string:)` refuses,
/// and many threads at once.
@Suite("Recent URLs")
struct RecentURLsTests {
    /// `RecentURLs` through both of its doors, for `text`.
    static func read(_ text: String) -> (fromBytes: URL?, fromString: URL?) {
        let bytes = Array(text.utf8)
        let fromBytes = bytes.withUnsafeBufferPointer { RecentURLs.url(fromUTF8: $0) }
        return (fromBytes, RecentURLs.url(from: text))
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
        let texts = (0..<(RecentURLs.placeCount * 4)).map { "https://cdn.example.com/images/\($0).png" }
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
        let texts = (0..<(RecentURLs.placeCount / 2)).map { "https://race.example.com/\($0 % 97)/\($0)" }
        Self.hammer(rounds: 50) { thread, round in
            for index in stride(from: (thread * 7 + round) % texts.count, to: texts.count, by: 3) {
                let text = texts[index]
                let url = text.utf8.withContiguousStorageIfAvailable { RecentURLs.url(fromUTF8: $0) } ?? nil
                #expect(url?.absoluteString == text)
                #expect(RecentURLs.url(from: text)?.absoluteString == text)
            }
        }
    }
}
