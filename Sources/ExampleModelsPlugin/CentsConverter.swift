import JSONModelKit

/// Amounts stored as whole cents (`1250`) and read as units (`12.5`).
struct CentsConverter: JSONConverter {
    func value(from json: JSONValue) throws(JSONConversionError) -> Double {
        guard let cents = json.numberValue?.intValue else { throw JSONConversionError("expected a whole number of cents") }
        return Double(cents) / 100
    }

    func json(from value: Double) -> JSONValue? {
        .number(JSONNumber(Int((value * 100).rounded())))
    }
}
