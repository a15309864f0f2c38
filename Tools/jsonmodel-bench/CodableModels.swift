import Foundation

// Typed Codable models for the JSONDecoder column: a meaningful subset of each
// standard document, the fields an application would typically read. Keys not
// modelled here are skipped by JSONDecoder, as in real use.

// MARK: - twitter.json, twitterescaped.json

/// A page of search results from a social network's status API.
struct TwitterSearch: Codable, Sendable {
    var statuses: [Status]
    var searchMetadata: SearchMetadata

    enum CodingKeys: String, CodingKey {
        case statuses
        case searchMetadata = "search_metadata"
    }
}

/// Paging information for a search.
struct SearchMetadata: Codable, Sendable {
    var completedIn: Double
    var maxID: Int64
    var maxIDString: String
    var query: String
    var count: Int
    var nextResults: String?

    enum CodingKeys: String, CodingKey {
        case completedIn = "completed_in"
        case maxID = "max_id"
        case maxIDString = "max_id_str"
        case query, count
        case nextResults = "next_results"
    }
}

/// One status (post). A repost carries the original in `retweetedStatus`.
struct Status: Codable, Sendable {
    var id: Int64
    var idString: String
    var text: String
    var createdAt: String
    var source: String
    var truncated: Bool
    var inReplyToStatusID: Int64?
    var inReplyToUserID: Int64?
    var inReplyToScreenName: String?
    var user: User
    var entities: Entities
    var retweetCount: Int
    var favoriteCount: Int
    var favorited: Bool
    var retweeted: Bool
    var possiblySensitive: Bool?
    var language: String
    var metadata: Metadata
    var retweetedStatus: Indirect<Status>?

    enum CodingKeys: String, CodingKey {
        case id
        case idString = "id_str"
        case text
        case createdAt = "created_at"
        case source, truncated
        case inReplyToStatusID = "in_reply_to_status_id"
        case inReplyToUserID = "in_reply_to_user_id"
        case inReplyToScreenName = "in_reply_to_screen_name"
        case user, entities
        case retweetCount = "retweet_count"
        case favoriteCount = "favorite_count"
        case favorited, retweeted
        case possiblySensitive = "possibly_sensitive"
        case language = "lang"
        case metadata
        case retweetedStatus = "retweeted_status"
    }

    /// How the search found the status.
    struct Metadata: Codable, Sendable {
        var resultType: String
        var isoLanguageCode: String

        enum CodingKeys: String, CodingKey {
            case resultType = "result_type"
            case isoLanguageCode = "iso_language_code"
        }
    }
}

/// The author of a status.
struct User: Codable, Sendable {
    var id: Int64
    var idString: String
    var name: String
    var screenName: String
    var location: String
    var description: String
    var url: String?
    var isProtected: Bool
    var followersCount: Int
    var friendsCount: Int
    var listedCount: Int
    var favouritesCount: Int
    var statusesCount: Int
    var createdAt: String
    var utcOffset: Int?
    var timeZone: String?
    var isVerified: Bool
    var language: String
    var profileImageURL: String
    var profileBannerURL: String?
    var profileLinkColor: String

    enum CodingKeys: String, CodingKey {
        case id
        case idString = "id_str"
        case name
        case screenName = "screen_name"
        case location, description, url
        case isProtected = "protected"
        case followersCount = "followers_count"
        case friendsCount = "friends_count"
        case listedCount = "listed_count"
        case favouritesCount = "favourites_count"
        case statusesCount = "statuses_count"
        case createdAt = "created_at"
        case utcOffset = "utc_offset"
        case timeZone = "time_zone"
        case isVerified = "verified"
        case language = "lang"
        case profileImageURL = "profile_image_url_https"
        case profileBannerURL = "profile_banner_url"
        case profileLinkColor = "profile_link_color"
    }
}

/// Hashtags, links and mentions found in a status's text.
struct Entities: Codable, Sendable {
    var hashtags: [Hashtag]
    var urls: [Link]
    var userMentions: [Mention]

    enum CodingKeys: String, CodingKey {
        case hashtags, urls
        case userMentions = "user_mentions"
    }

    struct Hashtag: Codable, Sendable {
        var text: String
        var indices: [Int]
    }

    struct Link: Codable, Sendable {
        var url: String
        var expandedURL: String
        var displayURL: String
        var indices: [Int]

        enum CodingKeys: String, CodingKey {
            case url
            case expandedURL = "expanded_url"
            case displayURL = "display_url"
            case indices
        }
    }

    struct Mention: Codable, Sendable {
        var id: Int64
        var name: String
        var screenName: String
        var indices: [Int]

        enum CodingKeys: String, CodingKey {
            case id, name
            case screenName = "screen_name"
            case indices
        }
    }
}

/// A box that lets a struct hold a value of its own type; coded as the value itself.
final class Indirect<Wrapped: Codable & Sendable>: Codable, Sendable {
    let value: Wrapped

    init(_ value: Wrapped) {
        self.value = value
    }

    init(from decoder: any Decoder) throws {
        value = try Wrapped(from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
        try value.encode(to: encoder)
    }
}

// MARK: - citm_catalog.json

/// A ticketing catalogue: events, their performances, and lookup tables of names.
struct Catalog: Codable, Sendable {
    var areaNames: [String: String]
    var audienceSubCategoryNames: [String: String]
    var events: [String: Event]
    var performances: [Performance]
    var seatCategoryNames: [String: String]
    var subTopicNames: [String: String]
    var topicNames: [String: String]
    var topicSubTopics: [String: [Int]]
    var venueNames: [String: String]

    struct Event: Codable, Sendable {
        var id: Int
        var name: String
        var description: String?
        var logo: String?
        var subtitle: String?
        var subjectCode: String?
        var subTopicIds: [Int]
        var topicIds: [Int]
    }

    struct Performance: Codable, Sendable {
        var id: Int
        var eventId: Int
        var name: String?
        var logo: String?
        var prices: [Price]
        var seatCategories: [SeatCategory]
        var seatMapImage: String?
        var start: Int64
        var venueCode: String
    }

    struct Price: Codable, Sendable {
        var amount: Int
        var audienceSubCategoryId: Int
        var seatCategoryId: Int
    }

    struct SeatCategory: Codable, Sendable {
        var areas: [Area]
        var seatCategoryId: Int
    }

    struct Area: Codable, Sendable {
        var areaId: Int
        var blockIds: [Int]
    }
}

// MARK: - canada.json

/// A GeoJSON feature collection of polygons.
struct FeatureCollection: Codable, Sendable {
    var type: String
    var features: [Feature]

    struct Feature: Codable, Sendable {
        var type: String
        var properties: Properties
        var geometry: Geometry
    }

    struct Properties: Codable, Sendable {
        var name: String
    }

    struct Geometry: Codable, Sendable {
        var type: String
        /// Rings of [longitude, latitude] positions.
        var coordinates: [[[Double]]]
    }
}
