import Foundation
import JSONModelKit
import Testing

/// A model whose properties take the names that the library's API would otherwise hold: every
/// one declared, read and written by its own name, with the generated typed members.
final class Setting: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.value(Double.self)
        p.json(String.self)
        p.set([String].self)
        p.update(Date?.self)
        p.copy(Bool.self, default: false)
        p.properties([String: Int].self)
        p.array([Int].self)
        p.stream(String?.self)
        p.validate(Bool.self)
        p.diagnostics([String].self)
        p.description(String?.self)
        p.modelName(String?.self)
    }
}

@Suite("Properties named like the model's API")
struct OwnNameTests {
    static let text = #"""
        {"value": 2.5, "json": "{}", "set": ["a", "b"], "update": "2024-05-01T10:00:00Z", "copy": true,
         "properties": {"x": 1}, "array": [1, 2, 3], "stream": "live", "validate": true,
         "diagnostics": ["ok"], "description": "A setting", "modelName": "S1", "extra": 7}
        """#

    @Test func everyNameReadsItsOwnProperty() throws {
        let setting = try Setting(json: Self.text)
        #expect(setting.value == 2.5)
        #expect(setting.json == "{}")
        #expect(setting.set == ["a", "b"])
        #expect(setting.update == Date(timeIntervalSince1970: 1_714_557_600))
        #expect(setting.copy)
        #expect(setting.properties == ["x": 1])
        #expect(setting.array == [1, 2, 3])
        #expect(setting.stream == "live")
        #expect(setting.validate)
        #expect(setting.diagnostics == ["ok"])
        #expect(setting.description == "A setting")
        #expect(setting.modelName == "S1")
        // The model's own API is still there, under its one name.
        #expect(setting.jsonModel.diagnostics.isEmpty)
        #expect(setting.jsonModel.modelName == "Setting")
        try setting.jsonModel.validate(strict: true)
        // Printing does not read the `description` property.
        #expect("\(setting)".hasPrefix("Setting(value: 2.5, "))
    }

    @Test func everyNameWritesAndRoundTrips() throws {
        let setting = try Setting(json: Self.text)
        let changed = setting.jsonModel.mutate { setting in
            setting.value = 3
            setting.json = "[]"
            setting.set = ["c"]
            setting.update = nil
            setting.copy = false
            setting.properties = [:]
            setting.array = []
            setting.stream = nil
            setting.validate = false
            setting.diagnostics = []
            setting.description = "Changed"
            setting.modelName = nil
        }
        let again = try Setting(json: changed.jsonModel.jsonBytes())
        #expect(again.value == 3)
        #expect(again.json == "[]")
        #expect(again.set == ["c"])
        #expect(again.update == nil)
        #expect(!again.copy)
        #expect(again.properties.isEmpty)
        #expect(again.array.isEmpty)
        #expect(again.stream == nil)
        #expect(!again.validate)
        #expect(again.diagnostics.isEmpty)
        #expect(again.description == "Changed")
        #expect(again.modelName == nil)
        // The key no property reads survives the round trip; the original is unchanged.
        #expect(again.jsonModel.json()["extra"] == 7)
        #expect(setting.value == 2.5)
        #expect(again == changed)
    }

    @Test func classMembersAndPropertiesDoNotCollide() throws {
        // `Setting.array(from:)` and `Setting.properties(_:)` are class members; `array` and
        // `properties` above are the instance's.
        let settings = try Setting.array(from: "[" + Self.text + "]")
        #expect(settings[0].array == [1, 2, 3])
        #expect(Setting.reservedPropertyNames.count <= 12)
        #expect(Setting.reservedPropertyNames.isDisjoint(with: [
            "value", "json", "set", "update", "copy", "properties", "array", "stream", "validate", "diagnostics",
            "description", "modelName",
        ]))
    }
}
