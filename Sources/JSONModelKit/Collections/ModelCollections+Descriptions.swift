// The lazy collections in descriptions and `dump`. (ModelArray's one-line and full
// descriptions live in Descriptions/ModelArray+Descriptions.swift.)

extension ModelDictionary: DescribableDictionary {
    var describedCount: Int { count }

    func describedEntries(_ limit: Int) -> [(key: String, value: Any)] {
        keys.sorted().prefix(limit).map { (key: $0, value: self[$0]! as Any) }
    }
}

extension ModelArray: CustomReflectable {
    /// The elements as a collection (`dump` shows `▿ 2 elements`); builds every element.
    public var customMirror: Mirror {
        Mirror(self, unlabeledChildren: Array(self), displayStyle: .collection)
    }
}

extension ModelDictionary: CustomReflectable {
    /// The members as a dictionary; builds every value.
    public var customMirror: Mirror {
        Mirror(self, children: keys.map { (label: $0 as String?, value: self[$0]! as Any) }, displayStyle: .dictionary)
    }
}
