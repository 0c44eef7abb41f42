/// Layouts through Swift's coders, in the contract's JSON shapes: a
/// rectangle is `[x, y, width, height]`, a size `[width, height]`, an
/// element `{"kind": "cell", "section": 0, "item": 0, "frame": [x, y, w, h], "zIndex": 0}`
/// with no `"item"` for headers, footers and backgrounds.
///
/// ``LayoutJSON`` writes the same JSON text faster, for servers and the CLI.
extension LayoutElement: Codable {
    private enum CodingKeys: String, CodingKey {
        case kind, section, item, frame, zIndex
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            kind: try container.decode(Kind.self, forKey: .kind),
            section: try container.decode(Int.self, forKey: .section),
            item: try container.decodeIfPresent(Int.self, forKey: .item),
            frame: try container.decode(Rect.self, forKey: .frame),
            zIndex: try container.decode(Int.self, forKey: .zIndex)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(section, forKey: .section)
        try container.encodeIfPresent(item, forKey: .item)
        try container.encode(frame, forKey: .frame)
        try container.encode(zIndex, forKey: .zIndex)
    }
}

/// `"cell"`, `"header"`, `"footer"` or `"background"`.
extension LayoutElement.Kind: Codable {}

/// `[x, y, width, height]`.
extension Rect: Codable {
    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        guard container.count == 4 else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a rect must be [x, y, width, height]")
        }
        self.init(
            x: try container.decode(Double.self),
            y: try container.decode(Double.self),
            width: try container.decode(Double.self),
            height: try container.decode(Double.self)
        )
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(x)
        try container.encode(y)
        try container.encode(width)
        try container.encode(height)
    }
}

/// `[width, height]`. Decoding also reads `{"width": w, "height": h}`, the
/// form of placer states that stores saved before sizes were arrays.
extension Size: Codable {
    private enum CodingKeys: String, CodingKey {
        case width, height
    }

    public init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: CodingKeys.self) {
            self.init(width: try keyed.decode(Double.self, forKey: .width), height: try keyed.decode(Double.self, forKey: .height))
            return
        }
        var container = try decoder.unkeyedContainer()
        guard container.count == 2 else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a size must be [width, height]")
        }
        self.init(width: try container.decode(Double.self), height: try container.decode(Double.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(width)
        try container.encode(height)
    }
}
