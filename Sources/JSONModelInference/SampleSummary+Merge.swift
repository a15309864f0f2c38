import JSONModelKit

// Merging summaries: a dictionary's values are summarized as one.

extension ValueSummary {
    /// Adds everything `other` saw, copying it (nothing of `other` is shared or changed).
    func merge(_ other: ValueSummary) {
        count += other.count
        nulls += other.nulls
        bools += other.bools
        opaque += other.opaque
        if let theirs = other.numbers {
            if numbers == nil { numbers = theirs } else { numbers!.merge(theirs) }
        }
        if let theirs = other.strings {
            if strings == nil { strings = theirs } else { strings!.merge(theirs) }
        }
        if let theirs = other.objects {
            if objects == nil { objects = ObjectSummary() }
            objects!.merge(theirs)
        }
        if let theirs = other.arrays {
            if arrays == nil { arrays = ArraySummary() }
            arrays!.count += theirs.count
            arrays!.elements.merge(theirs.elements)
        }
    }
}

extension ObjectSummary {
    func merge(_ other: ObjectSummary) {
        count += other.count
        for key in other.keys {
            guard let theirs = other[key] else { continue }
            add(key, count: theirs.count) { $0.merge(theirs.values) }
        }
    }
}

extension NumberSummary {
    mutating func merge(_ other: NumberSummary) {
        count += other.count
        allIntegers = allIntegers && other.allIntegers
        allFitInt64 = allFitInt64 && other.allFitInt64
        allFitUInt64 = allFitUInt64 && other.allFitUInt64
        maximumSignificantDigits = max(maximumSignificantDigits, other.maximumSignificantDigits)
        minimumExponent = min(minimumExponent, other.minimumExponent)
        maximumExponent = max(maximumExponent, other.maximumExponent)
        minimumMagnitude = min(minimumMagnitude, other.minimumMagnitude)
        maximumMagnitude = max(maximumMagnitude, other.maximumMagnitude)
        anyNegative = anyNegative || other.anyNegative
    }
}

extension StringSummary {
    mutating func merge(_ other: StringSummary) {
        count += other.count
        dateFormats.removeAll { !other.dateFormats.contains($0) }
        if other.tooManyDistinct { tooManyDistinct = true }
        if !tooManyDistinct {
            for (value, seen) in other.distinct { distinct[value, default: 0] += seen }
            if distinct.count > maximumDistinct {
                tooManyDistinct = true
                distinct = [:]
            }
        }
    }
}
