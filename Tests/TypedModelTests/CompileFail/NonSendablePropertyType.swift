import JSONModelKit

/// A class whose instances threads would share unprotected.
final class Counter {
    var count = 0
}

final class Tally: JSONModel, @unchecked Sendable {
    override class func properties(_ p: PropertyRegistrar) {
        p.counter(Counter.self)
    }
}
