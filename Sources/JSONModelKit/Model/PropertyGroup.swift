import JSONModelKitCore

// Property groups. Whether a declaration may be one is checked with the other structural
// options, at declaration (`PropertyDeclaration.checkingStructure()`, Runtime/ModelMetadata.swift).
//
// A property group (`group: true`) is a model property whose model reads the
// parent's own JSON object rather than a member of it (WrapModel's WPGroup):
//
//     {"name": "Ann", "street": "Via Roma 1", "city": "Rome"}
//
//     final class Person: JSONModel, @unchecked Sendable {
//         override class func properties(_ p: PropertyRegistrar) {
//             p.name(String.self)
//             p.address(Address.self, group: true)   // street and city, same level
//         }
//     }
//
// The group is created on first access and cached like any property. Its path
// is the empty path, so on a mutable parent it is linked with an empty path:
// its writes replace the parent's object with the group's, and before each
// write the group takes the parent's current object, so writes made through
// the parent in between are never lost.

extension PropertyMetadata {
    /// The paths output with ``JSONOutputOptions/onlyDeclared`` keeps: a group's are those of
    /// its model's declared properties, at the parent's level.
    var declaredOutputPaths: [JSONPath] {
        guard options.group else { return paths }
        return groupMetadata?.properties.flatMap(\.declaredOutputPaths) ?? []
    }

    /// The metadata of a property group's model; nil for other properties.
    var groupMetadata: ModelMetadata? {
        guard options.group else { return nil }
        switch type {
        case .schemaModel, .optional(.schemaModel): return schemaModel?.metadata
        default: return type.modelType.map { ModelRegistry.shared.metadata(for: $0) }
        }
    }
}

extension ModelMetadata {
    /// The properties output options apply to at the model's level: its own, and in place of
    /// each property group the properties of the group's model, which reads this object too, as
    /// deep as groups nest (a cycle of groups is refused when declared; 32 levels bound it all
    /// the same).
    func outputProperties(depth: Int = 0) -> [PropertyMetadata] {
        properties.flatMap { property -> [PropertyMetadata] in
            guard property.options.group else { return [property] }
            guard depth < 32, let metadata = property.groupMetadata else { return [] }
            return metadata.outputProperties(depth: depth + 1)
        }
    }
}

extension JSONModel {
    /// Clears a property group's writes: puts the group's keys (those of its properties, and of
    /// the groups inside it) back as the group's original JSON has them, and passes the object
    /// up. The parent's object holds more than the group's keys: the parent's own writes and
    /// other groups' stay. (Putting the whole original back, as for another nested model, erased
    /// them.) A key the parent has since made unreachable (`address.city` under an `address`
    /// that is now a string), and an array element the original lacks, stay as the parent has them.
    func dropGroupMutations() {
        syncWithGroupParent()
        let original = self.original
        var object = currentSource.jsonValue
        var paths: [JSONPath] = []
        for path in metadata.outputProperties().flatMap(\.paths) where !path.segments.isEmpty && !paths.contains(path) {
            let before = original[path]?.jsonValue
            // An element the original lacks stays: removing it would move the elements after it.
            if before == nil, case .index = path.segments.last { continue }
            if object[path] == before { continue }  // unchanged: nothing to put back
            // An element the group removed is put back in its place, not written over the one
            // that moved up into it.
            if let before, case .index(let index)? = path.segments.last, let arrayPath = path.parent,
                case .array(let then)? = original[arrayPath]?.jsonValue, case .array(var now)? = object[arrayPath],
                index < then.count, now.count == then.count - 1,
                now.elementsEqual(then.prefix(index) + then.dropFirst(index + 1))
            {
                now.insert(before, at: index)
                guard (try? object.writeValue(.array(now), at: arrayPath)) != nil else { continue }
                paths.append(arrayPath)
                continue
            }
            guard (try? object.writeValue(before, at: path)) != nil else { continue }
            paths.append(path)
        }
        guard !paths.isEmpty else { return }
        let before = state.withLock { state -> JSONInput in
            let before = state.current.map(JSONInput.value) ?? original
            let touched = childrenTouched(by: paths, in: state)
            state.current = object
            state.cache = []
            state.generation += 1
            detachChanged(touched, in: &state)
            return before
        }
        propagate(object, changed: paths, before: before)
    }

    /// Writes a whole group: each of the group's declared paths takes the new value's
    /// (a path the new value lacks is removed); other keys of this object stay.
    ///
    /// - Throws: ``JSONModelError/unwritable(model:property:reason:)`` when a path meets a value
    ///   of another kind (a group's `address.city` where this object's `address` is a string);
    ///   nothing is written then.
    func replaceGroup(_ encoded: JSONValue?, of property: PropertyMetadata) throws(JSONModelError) {
        var object = currentSource.jsonValue
        // Values first, then the removals, of an array's elements the later one first: removing
        // one moves the elements after it, which the group's later paths would then meet.
        let paths = property.declaredOutputPaths.filter { !$0.segments.isEmpty }
        let writes = paths.filter { encoded?[$0] != nil }
        let removals = paths.filter { encoded?[$0] == nil }.sorted { $1.precedesInDocument($0) }
        for path in writes + removals {
            do {
                try object.writeValue(encoded?[path], at: path)
            } catch {
                throw .unwritable(model: metadata.modelName, property: property.name, reason: error.description)
            }
        }
        replaceCurrent(with: object, removed: removals)
    }
}

extension JSONPath {
    /// Whether this path comes before `other` in a walk of the document: array elements in
    /// index order, keys in the order of their text (which orders only the removals of a group,
    /// where keys move nothing).
    func precedesInDocument(_ other: JSONPath) -> Bool {
        for (mine, theirs) in zip(segments, other.segments) {
            switch (mine, theirs) {
            case (.index(let a), .index(let b)) where a != b: return a < b
            case (.key(let a), .key(let b)) where a != b: return a < b
            case (.key, .index): return true
            case (.index, .key): return false
            default: continue
            }
        }
        return segments.count < other.segments.count
    }
}
