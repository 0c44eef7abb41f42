/// One item of a section. Each layout kind reads only the fields it needs;
/// a field is validated by the kind that reads it, never by the others.
public struct Item: Sendable, Hashable {
    /// The item's on-screen size (flow).
    public var size: Size?
    /// The item takes 1/fraction of a line (grid).
    public var fraction: Int?
    /// Width / height on screen (grid, staggered, mosaic).
    public var aspectRatio: Double?
    /// The item covers scale×scale cells (scaledGrid).
    public var scale: Int?
    /// Cells spanned across the scroll axis (mozaik, staggered).
    public var columns: Int?
    /// Cells spanned along the scroll axis (mozaik).
    public var rows: Int?
    /// Whether the item may span several columns (mosaic).
    public var canBeBig: Bool?
    /// The extent along the scroll axis (staggered).
    public var length: Double?
    /// Fields present in the JSON with a value of the wrong type, with the
    /// reason; kept so that only a kind that reads the field rejects it.
    var malformed: [Field: MalformedValue]?

    /// A field value of the wrong type, kept as written so that the item
    /// encodes back to the same JSON.
    struct MalformedValue: Sendable, Hashable {
        var value: JSONValue
        var reason: String
    }

    /// The item's fields, by their JSON names.
    public enum Field: String, Sendable, Hashable, CaseIterable {
        case size, fraction, aspectRatio, scale, columns, rows, canBeBig, length
    }

    /// An item with the given fields; nil fields take the layout's defaults.
    public init(
        size: Size? = nil,
        fraction: Int? = nil,
        aspectRatio: Double? = nil,
        scale: Int? = nil,
        columns: Int? = nil,
        rows: Int? = nil,
        canBeBig: Bool? = nil,
        length: Double? = nil
    ) {
        self.size = size
        self.fraction = fraction
        self.aspectRatio = aspectRatio
        self.scale = scale
        self.columns = columns
        self.rows = rows
        self.canBeBig = canBeBig
        self.length = length
    }

    /// An item with an explicit on-screen size.
    public init(width: Double, height: Double) {
        self.init(size: Size(width: width, height: height))
    }
}

/// Where an item came from, for error messages: `sections[2].items[17]`,
/// `sections[1].items.cycle[3]`, or the line of an items file.
public struct ItemLocation: Sendable {
    /// The item's section.
    public var section: Int
    /// The item's index in the section.
    public var index: Int
    /// For cycled items, the index of the cycle entry the item repeats.
    public var cycleEntry: Int?
    /// For items of a `segments` source, the segment and the item's index in it.
    package var segment: (index: Int, item: Int)?

    /// The location of item `index` of section `section`.
    public init(section: Int, index: Int, cycleEntry: Int? = nil) {
        self.section = section
        self.index = index
        self.cycleEntry = cycleEntry
    }

    /// The JSON path of the item (or of its cycle entry), for errors.
    public var path: JSONPath {
        var items = JSONPath.root.appending("sections").appending(section).appending("items")
        if let segment { items = items.appending("segments").appending(segment.index) }
        if let cycleEntry { return items.appending("cycle").appending(cycleEntry) }
        return items.appending(segment?.item ?? index)
    }

    /// An error about one field of this item.
    public func error(_ field: Item.Field, _ reason: String) -> SpecError {
        path.appending(field.rawValue).error(reason)
    }
}
