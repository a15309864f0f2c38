// The lazy collections in `dump`. What the description writer needs of them (ModelArray's
// description and full layout, ModelDictionary's listing) is in Descriptions/, which builds
// on this folder rather than under it.

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
