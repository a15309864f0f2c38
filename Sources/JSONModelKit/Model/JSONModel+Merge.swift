#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSONModelKitCore

// Merging a partial JSON object into a model.
//
// The rules are those of JSON Merge Patch (RFC 7396): members of the partial
// object replace the model's; where both are objects (nested models,
// dictionaries) they merge recursively; arrays and scalars are replaced
// whole; a `null` member removes the key (which reads as missing). Keys the
// partial object does not mention stay as they are.

extension JSONModel {
    /// An immutable model with `partialJSON` merged into this model's current JSON.
    ///
    /// ```swift
    /// let user = try User(json: #"{"name": "Ann", "address": {"city": "Rome", "zip": "00100"}}"#)
    /// let moved = try user.jsonModel.merging(["address": ["city": "Milan"]])
    /// moved.address.city   // "Milan"; name and zip stay
    /// ```
    ///
    /// The result is of this model's class, or a subclass `modelClass(for:)` picks for the
    /// merged JSON.
    ///
    /// - Parameter partialJSON: A JSON object.
    /// - Returns: A new immutable model; this one is unchanged.
    /// - Throws: ``JSONModelError/mergePatchNotAnObject(model:found:)`` when `partialJSON` is not an object.
    /// - Complexity: O(*n*) in the size of the model's JSON (it is copied once).
    func merged(with partialJSON: JSONValue) throws(JSONModelError) -> Self {
        let merged = try mergedJSON(with: partialJSON)
        return makeCopy(source: .value(merged), mutable: false)
    }


    /// Merges `partialJSON` into this mutable model, in place.
    ///
    /// ```swift
    /// let user = try User(json: data, options: .mutable)
    /// try user.jsonModel.update(with: ["age": 31, "address": ["zip": "20100"]])
    /// ```
    ///
    /// Cached values are dropped; a nested model of a mutable parent passes the change up.
    ///
    /// - Parameter partialJSON: A JSON object.
    /// - Throws: ``JSONModelError/immutable(model:property:)`` for an immutable model,
    ///   ``JSONModelError/unwritable(model:property:reason:)`` for a nested model whose parent
    ///   holds something other than an object where its object goes,
    ///   ``JSONModelError/mergePatchNotAnObject(model:found:)`` when `partialJSON` is not an object.
    func applyPatch(_ partialJSON: JSONValue) throws(JSONModelError) {
        guard isMutable else { throw .immutable(model: metadata.modelName, property: "update(with:)") }
        syncWithGroupParent()
        // As a property's write is: a merge the models above would not take would read back
        // here and be missing from the parent's JSON and output.
        if let refusal = parentRefusal() {
            throw .unwritable(model: metadata.modelName, property: "update(with:)", reason: refusal)
        }
        replaceCurrent(with: try mergedJSON(with: partialJSON))
    }

    /// Makes `object` this model's current JSON, drops the cache and passes the change up;
    /// `removed`, the array elements the change removed, detach the models read after them.
    func replaceCurrent(with object: JSONValue, removed: [JSONPath] = []) {
        let before = state.withLock { state -> JSONInput in
            let before = state.current.map(JSONInput.value) ?? original
            let touched = childrenTouched(by: [.root], in: state)
            state.current = object
            state.cache = []
            state.generation += 1
            detachChanged(touched, in: &state, moved: Self.movedByRemoving(removed))
            return before
        }
        propagate(object, changed: [.root], removed: removed, before: before)
    }

    /// This model's current JSON with `partial` merged in.
    func mergedJSON(with partial: JSONValue) throws(JSONModelError) -> JSONValue {
        guard case .object = partial else {
            throw .mergePatchNotAnObject(model: metadata.modelName, found: JSONInput.value(partial).kind)
        }
        return JSONModel.merge(partial, into: currentSource.jsonValue)
    }

    /// JSON Merge Patch: objects merge member by member, `null` removes, anything else replaces.
    ///
    /// Nested objects are merged from a stack of frames rather than by recursion, so a patch as
    /// deep as any JSON is merged on a small stack.
    static func merge(_ patch: JSONValue, into target: JSONValue) -> JSONValue {
        guard case .object(let patchObject) = patch else { return patch }
        /// An object of the patch being merged into `result`, from member `next` on.
        struct Frame {
            let patch: JSONObject
            var next = 0
            var result: JSONObject
            /// The key of the nested object being merged, where its result goes.
            var pendingKey = ""
        }
        var stack = [Frame(patch: patchObject, result: target.objectValue ?? JSONObject())]
        var finished: JSONObject?
        while var frame = stack.popLast() {
            if let merged = finished {
                frame.result[frame.pendingKey] = .object(merged)
                finished = nil
            }
            var nested: Frame?
            while nested == nil && frame.next < frame.patch.members.count {
                let member = frame.patch.members[frame.next]
                frame.next += 1
                // A key given twice is the last member's, as reading the patch takes it: an
                // earlier `null` must not remove what a later object merges into.
                if frame.patch.lastIndex(forKey: member.key) != frame.next - 1 { continue }
                switch member.value {
                case .null:
                    _ = frame.result.removeValue(forKey: member.key)
                case .object(let nestedPatch):
                    frame.pendingKey = member.key
                    nested = Frame(patch: nestedPatch, result: frame.result[member.key]?.objectValue ?? JSONObject())
                default:
                    frame.result[member.key] = member.value
                }
            }
            if let nested {
                stack.append(frame)
                stack.append(nested)
            } else {
                finished = frame.result
            }
        }
        return .object(finished ?? JSONObject())
    }
}
