import JSONModelKit

// What the creation cases wrap, for assertions that read one field of it.
extension JSONModelError {
    /// The parse error of ``JSONModelError/invalidJSON(_:)``, or nil for another case.
    var parseError: JSONParseError? {
        if case .invalidJSON(let error) = self { return error }
        return nil
    }

    /// The validation error of ``JSONModelError/validationFailed(_:)``, or nil for another case.
    var validationError: ModelValidationError? {
        if case .validationFailed(let error) = self { return error }
        return nil
    }
}
