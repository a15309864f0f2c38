import Foundation
import Testing
@testable import JSONModelKit

final class SectionStatus: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.id(Int.self)
        p.favouritesCount(Int.self, jsonPath: "favourites_count")
        p.reblog(SectionStatus?.self)
        p.media([SectionMedia].self)
    }
}

final class SectionMedia: JSONModel, DynamicMembers, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.url(String.self)
        p.width(Int.self)
    }
}

/// The sections after a full description cover the nested models too: their unknown keys by
/// path, their changes by property path.
@Suite("Nested description sections")
struct NestedDescriptionSectionsTests {
    static let json = #"""
        {"id": 1, "favourites_count": 3, "top_extra": 1,
         "reblog": {"id": 2, "favourites_count": 11, "inner_extra": "x",
                    "media": [{"url": "a", "width": 1, "blurhash": "LEHV"}]},
         "media": [{"url": "b", "width": 2}, {"url": "c", "width": 3, "alt": null}]}
        """#

    @Test func unknownKeysOfNestedModelsAreListedWithTheirPaths() throws {
        let status = try SectionStatus(json: Self.json)
        let full = status.jsonModel.fullDescription
        let unknown = try #require(full.components(separatedBy: "\nunknown keys:\n").last)
        #expect(unknown == """
              top_extra: 1
              reblog.inner_extra: "x"
              reblog.media[0].blurhash: "LEHV"
              media[1].alt: null
            """)
        // Describing built nothing.
        let media: ModelArray<SectionMedia> = status.media
        #expect(!media.isElementBuilt(at: 1))
    }

    @Test func nestedChangesShowTheirPathAndValues() throws {
        let status = try SectionStatus(json: Self.json, options: .mutable)
        let reblog: SectionStatus? = status.reblog
        reblog?.favouritesCount = 12
        let media: ModelArray<SectionMedia> = status.media
        media[1].width = 30
        let full = status.jsonModel.fullDescription
        let changes = try #require(full.components(separatedBy: "\nchanged since the original:\n").last)
        #expect(changes == """
              reblog.favouritesCount: 11 → 12
              media[1].width: 3 → 30
            """)
    }

    @Test func aValueThatChangedShapeShowsWhole() throws {
        let status = try SectionStatus(json: Self.json, options: .mutable)
        status[property: "reblog"] = SectionStatus?.none
        status.favouritesCount = 4
        let full = status.jsonModel.fullDescription
        let changes = try #require(full.components(separatedBy: "\nchanged since the original:\n").last)
        #expect(changes.hasPrefix("  favouritesCount: 3 → 4\n  reblog: SectionStatus(id: 2, favouritesCount: 11, media: [1 item]) → nil"))
    }
}
