import JSONModelKitCore

// Reading properties by name: the subscript the typed members and dynamic members call, and
// the fast path it inlines into the caller.

extension JSONModel {
    /// Reads (or, on a mutable model, writes) a declared property by name, with its Swift type.
    ///
    /// This is what the typed members generated from a registration block call, and what
    /// ``DynamicMembers`` forwards to; use it for a name that is not a Swift identifier:
    ///
    /// ```swift
    /// let name: String = user[property: "first-name"]
    /// mutableUser[property: "age"] = 31
    /// ```
    ///
    /// The first read converts the JSON and caches the value; a value that does
    /// not convert gives the property's default and records a diagnostic.
    /// Reading an undeclared name, or with a Swift type the property does not
    /// have, is a programmer error and stops the program with a message that
    /// names the class and property. Writing to an immutable model stops the
    /// program too; use ``JSONModelView/set(_:forProperty:)`` to get an error instead. A
    /// written value of another type is accepted when it converts exactly
    /// (`user.id = 6` for an `Int64` property).
    ///
    /// - Complexity: O(1) once cached: a few loads and compares, no lock.
    // Inlinable so a client's read knows `T` (the unspecialized generic spent most of its time
    // instantiating metadata), and the getter always inlined: left to the optimizer, a read in
    // a closure became a call with a retain and release of the model around it, three times
    // the cost of the cached read itself (measured in jsonmodel-bench, model (c)).
    @inlinable
    public subscript<T>(property name: String) -> T {
        @inline(__always) get {
            let ordinal = rawNames.ordinal(of: name)
            if let ordinal, let value: T = _cachedValue(at: ordinal) { return value }
            return _uncachedValue(forMember: name, ordinal: ordinal ?? -1)
        }
        set {
            _assign(newValue, forMember: name)
        }
    }

    /// Reads a declared property by name, with its Swift type, given where the property comes
    /// among the class's declarations: what the typed members generated from a registration
    /// block call, through `@_spi(GeneratedAccessors) import JSONModelKit`.
    ///
    /// `ordinal` counts the declared properties from 0, superclasses' first, in declaration
    /// order. It is checked against the name on every read: a right one saves the lookup of the
    /// name's entry, about a tenth of a cached read; a wrong one, or a name of more than 15
    /// UTF-8 bytes (whose `String` the check cannot compare by its bits), sends the read down
    /// the general path, which finds the property by name. Otherwise this reads as
    /// ``subscript(property:)`` does.
    ///
    /// - Complexity: O(1) once cached: a compare of the name at `ordinal`, and the cached read.
    @inlinable
    @_spi(GeneratedAccessors)
    public subscript<T>(property name: String, ordinal ordinal: Int) -> T {
        @inline(__always) get {
            let known = rawNames.has(name, at: ordinal)
            if known, let value: T = _cachedValue(at: ordinal) { return value }
            return _uncachedValue(forMember: name, ordinal: known ? ordinal : -1)
        }
    }

    /// The cached value of an immutable model's property `ordinal` (found by the bits of the
    /// name's `String`, which a literal of up to 15 bytes has), when the value is cached, needs no
    /// validation, and has exactly type `T`; nil sends the read down the general path.
    ///
    /// Inlined into the caller with `T` known, this is a few loads and compares and one call,
    /// the slot's atomic load (``CacheSlots/bits(at:in:)``, which hands back the slots' address
    /// for the inline value's load): no hashing of the name's bytes, no lock and no reference
    /// counting (measured in `jsonmodel-bench --section model`, row (c)).
    @inlinable @inline(__always)
    func _cachedValue<T>(at ordinal: Int) -> T? {
        let (bits, base) = readSlots.bitsAndBase(at: ordinal)
        // An inline value of type `T`, in one compare of all bits but the offset's: the
        // fast-read bit clear, the inline tag set, the type's bits equal. Whether the value
        // has anything to destroy depends on its type alone, so the whole tag is known here
        // and a shift drops the offset, where a mask took a 64-bit constant and a register.
        if bits &<< 16 == CacheSlots.inlineBits(of: T.self) &<< 16 {
            return CacheSlots.View(base: base).loadInline(bits, as: T.self)
        }
        guard bits & (CacheSlots.slowTag | CacheSlots.inlineTag) == 0 else { return nil }
        let pointer = UnsafeRawPointer(bitPattern: bits).unsafelyUnwrapped
        // The slot holds a reference until the model is freed, and `self` is alive here.
        return Unmanaged<CacheEntry>.fromOpaque(pointer)._withUnsafeGuaranteedRef { entry in
            guard entry.valueType == ObjectIdentifier(T.self) else { return nil }
            return unsafeDowncast(entry, to: CacheBox<T>.self).value
        }
    }

    /// A read that is not a fast cached one: the first read, a mutable model, a long name.
    ///
    /// Out of line, so the caller's loop around a read stays free of calls on the fast path.
    ///
    /// - Parameter known: The ordinal the name table found for `name`, or -1 (a long name).
    @inlinable @inline(never)
    func _uncachedValue<T>(forMember name: String, ordinal known: Int) -> T {
        let (entry, ordinal) = _cacheEntry(forMember: name, ordinal: known, readAs: ObjectIdentifier(T.self))
        guard let entry else {
            // Cached inline, in the slots.
            if let value = readSlots.inlineValue(readSlots.bits(at: ordinal), as: T.self) { return value }
            return _typedValue(self.entry(at: ordinal), forMember: name, ordinal: ordinal)
        }
        // A compare against `T`'s static metadata, where a class cast would look up the metadata
        // of `CacheBox<T>` at run time on every first read.
        if entry.valueType == ObjectIdentifier(T.self) { return unsafeDowncast(entry, to: CacheBox<T>.self).value }
        return _typedValue(entry, forMember: name, ordinal: ordinal)
    }

    /// The cache entry of a declared property and its ordinal, converting and caching on first
    /// use; a nil entry when the value is cached inline in the slots. Stops the program for an
    /// undeclared name.
    ///
    /// - Parameters:
    ///   - known: The property's ordinal when the caller has it, or -1.
    ///   - readAs: The type the caller reads the value as: a lazy array read as the Swift array it
    ///     stands for builds every element in its first read (``frozenEntry(at:in:revalidate:readAs:)``).
    @usableFromInline
    func _cacheEntry(forMember name: String, ordinal known: Int, readAs: ObjectIdentifier? = nil)
        -> (entry: CacheEntry?, ordinal: Int)
    {
        guard let ordinal = known >= 0 ? known : metadata.ordinal(of: name) else { unrecognizedProperty(name) }
        switch slots {
        case .some(let slots): return (frozenEntry(at: ordinal, in: slots, revalidate: true, readAs: readAs), ordinal)
        case .none: return (entry(at: ordinal), ordinal)
        }
    }

    /// A cached value read as a type other than the declared one (`Int?` for an `Int`),
    /// or a stop with a message for a type it does not have.
    @usableFromInline
    func _typedValue<T>(_ entry: CacheEntry, forMember name: String, ordinal: Int) -> T {
        // A lazy array read as the Swift array it stands for (`[Item]`), by the types the
        // metadata knows, and with nothing here but this: unspecialized, as it runs here, code
        // that names `T?` looks it up at run time on entry, a hash lookup that took more than
        // the rest of the read (PERF: citm_catalog.json in `jsonmodel-bench --section
        // documents`, which reads its arrays as `[Item]`).
        let (lazyArrayType, declaredCollectionType, valueType) = metadataReference._withUnsafeGuaranteedRef {
            let property = $0.properties[ordinal]
            return (property.lazyArrayType, property.declaredCollectionType, property.valueType)
        }
        if let lazyArrayType, ObjectIdentifier(T.self) == declaredCollectionType, entry.valueType == ObjectIdentifier(valueType) {
            return lazyArrayType.declaredArray(of: entry, as: T.self)
        }
        return convertedValue(entry, forMember: name, ordinal: ordinal)
    }

    /// ``_typedValue(_:forMember:ordinal:)`` for everything but a lazy array read as its Swift array.
    @inline(never)
    private func convertedValue<T>(_ entry: CacheEntry, forMember name: String, ordinal: Int) -> T {
        // A lazy collection read as the Swift collection it stands for (`[Item]`), by the type
        // the metadata knows.
        let (lazyCollectionType, declaredCollectionType) = metadataReference._withUnsafeGuaranteedRef {
            ($0.properties[ordinal].lazyCollectionType, $0.properties[ordinal].declaredCollectionType)
        }
        if let collection = lazyCollectionType {
            if ObjectIdentifier(T.self) == declaredCollectionType,
                let declared = collection.declaredCollection(entry, as: T.self)
            {
                return declared
            }
            if let bridged = collection.bridged(entry, to: T.self) { return bridged }
        }
        let value = entry.anyValue
        if let typed = value as? T { return typed }
        // A lazy collection read as the Swift collection it stands for (`[Item]`).
        if let bridged: T = bridgedLazyCollection(value) { return bridged }
        let property = metadata.properties[ordinal]
        if unwrappedValue(value) == nil && !(T.self is any OptionalPropertyValue.Type) {
            preconditionFailure(
                "\(metadata.modelName).\(name) is nil; read the \(property.type) property as an optional")
        }
        preconditionFailure("\(metadata.modelName).\(name) is declared \(property.type) but was read as \(T.self)")
    }

    /// Writes through the member syntax; stops the program on failure.
    @usableFromInline
    func _assign(_ newValue: Any, forMember name: String) {
        guard let ordinal = metadata.ordinal(of: name) else { unrecognizedProperty(name) }
        do {
            try (self as any PropertyWriting).assign(newValue, at: ordinal)
        } catch {
            preconditionFailure(error.description)
        }
    }

    /// A declared property read without a stated type; stops the program for an undeclared name.
    func modelValue(forProperty name: String) -> ModelValue {
        guard let ordinal = metadata.ordinal(of: name) else { unrecognizedProperty(name) }
        return ModelValue(model: metadata.modelName, property: name, value: unwrappedValue(value(at: ordinal)))
    }
}

/// The write path, which Model/ implements on top of this folder (property groups, copies,
/// merges): member-syntax writes reach it through this requirement.
protocol PropertyWriting: AnyObject {
    /// Writes a value of the property's type, or one that converts to it exactly.
    func assign(_ value: Any?, at ordinal: Int) throws(JSONModelError)
}
