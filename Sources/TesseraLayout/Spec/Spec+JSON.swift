/// Reading a spec from JSON and writing it back.
extension Spec {
    /// Reads a spec from parsed JSON.
    ///
    /// - Parameters:
    ///   - json: the spec, parsed.
    ///   - registry: the layout kinds the spec may name.
    ///   - baseDirectory: where `{"file": ...}` item paths are relative to.
    /// - Throws: ``SpecError`` naming the JSON path and the rule broken.
    public init(json: JSONValue, registry: LayoutRegistry = .standard, baseDirectory: String? = nil) throws {
        let root = JSONPath.root
        guard case .object(let object) = json else { throw root.error("a spec must be a JSON object, got \(json.typeName)") }
        let reader = LayoutParameters(object: object, path: root)
        try reader.refuseUnknownKeys(Spec.keys)
        guard object["format"] != nil, object["format"] != .null else {
            throw root.appending("format").error("is required (this version reads format \(Spec.format))")
        }
        let format = try reader.requiredInteger("format", minimum: 0)
        guard format == Spec.format else {
            throw root.appending("format").error("unsupported format \(format) (this version reads format \(Spec.format))")
        }
        var name: String?
        if let value = object["name"], value != .null {
            guard case .string(let text) = value else { throw root.appending("name").error("must be a string, got \(value.typeName)") }
            let normalized = Spec.normalizedName(text)
            try Spec.checkName(normalized, at: root.appending("name"))
            name = normalized
        }
        let axisName = try reader.string("axis", oneOf: Axis.allCases.map(\.rawValue), default: Axis.vertical.rawValue)
        let axis = Axis(rawValue: axisName) ?? .vertical
        let sectionSpacing = try reader.number("sectionSpacing", default: 0)
        guard let sectionsValue = object["sections"], sectionsValue != .null else {
            throw root.appending("sections").error("is required")
        }
        guard case .array(let sectionValues) = sectionsValue else {
            throw root.appending("sections").error("must be an array, got \(sectionsValue.typeName)")
        }
        var sections: [Section] = []
        sections.reserveCapacity(sectionValues.count)
        for (index, value) in sectionValues.enumerated() {
            sections.append(try Section(
                json: value,
                path: root.appending("sections").appending(index),
                registry: registry,
                baseDirectory: baseDirectory
            ))
        }
        try LayoutEngine.checkSectionIDs(sections)
        let known = sections.reduce(0) { $0 + ($1.items.knownCount ?? 0) }
        guard known <= Spec.maximumItemCount else {
            throw root.appending("sections").error("hold \(known) items in all, more than a spec's limit of \(Spec.maximumItemCount)")
        }
        self.init(name: name, axis: axis, sectionSpacing: sectionSpacing, sections: sections)
    }

    /// Reads a spec from JSON text.
    public init(jsonText: String, registry: LayoutRegistry = .standard, baseDirectory: String? = nil) throws {
        let json: JSONValue
        do {
            json = try JSONParser.parse(jsonText)
        } catch {
            throw SpecError(path: "", reason: "the spec is not valid JSON: \(error)")
        }
        try self.init(json: json, registry: registry, baseDirectory: baseDirectory)
    }

    /// Reads a spec file; item files are relative to its directory. The
    /// file must be a regular file of at most ``maximumFileBytes``.
    public init(contentsOfFile path: String, registry: LayoutRegistry = .standard) throws {
        try self.init(contentsOfFile: path, registry: registry, readingStandardInput: false)
    }

    /// Reads a spec file, or standard input for `-` when `readingStandardInput`
    /// (under the same limit; item files are then relative to the current folder).
    package init(contentsOfFile path: String, registry: LayoutRegistry = .standard, readingStandardInput: Bool) throws {
        let rules = readingStandardInput ? FileRules.specFile.readingStandardInput : .specFile
        let bytes = try FileBytes.read(path, rules: rules)
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw SpecError(path: "", reason: "\(rules.name(of: path)) is not valid JSON: \(error)")
        }
        try self.init(json: json, registry: registry, baseDirectory: FileBytes.directory(of: path))
    }

    /// The spec as JSON, as a user would write it.
    public var jsonValue: JSONValue {
        var object = JSONObject()
        object["format"] = .number(Double(Spec.format))
        if let name { object["name"] = .string(name) }
        object["axis"] = .string(axis.rawValue)
        object["sectionSpacing"] = .number(sectionSpacing)
        object["sections"] = .array(sections.map(\.jsonValue))
        return .object(object)
    }

    /// Canonical JSON text: equal texts mean equal layouts (given equal item
    /// files). The name is left out: it files a spec, it does not shape it.
    public var canonicalText: String {
        var json = jsonValue
        if case .object(var object) = json {
            object["name"] = nil
            json = .object(object)
        }
        return JSONWriter.canonical(json)
    }
}

extension Spec {
    /// The keys of a spec object.
    static let keys = ["format", "name", "axis", "sectionSpacing", "sections"]
}

extension Section {
    /// The keys of a section object.
    static let keys = ["id", "layout", "insets", "header", "footer", "background", "items", "orthogonal"]

    /// Reads section `index` of a spec from its JSON.
    public init(json: JSONValue, index: Int, registry: LayoutRegistry = .standard, baseDirectory: String? = nil) throws {
        try self.init(json: json, path: JSONPath.root.appending("sections").appending(index), registry: registry, baseDirectory: baseDirectory)
    }

    init(json: JSONValue, path: JSONPath, registry: LayoutRegistry, baseDirectory: String?) throws {
        guard case .object(let object) = json else { throw path.error("a section must be an object, got \(json.typeName)") }
        let reader = LayoutParameters(object: object, path: path)
        try reader.refuseUnknownKeys(Section.keys)
        var id: String?
        if let value = object["id"], value != .null {
            switch value {
            case .string(let text): id = text
            case .number(let number) where exactInteger(number) != nil: id = JSONWriter.format(number)
            default: throw path.appending("id").error("must be a string or an integer, got \(value.typeName)")
            }
        }
        guard let layoutValue = object["layout"], layoutValue != .null else { throw path.appending("layout").error("is required") }
        let layout = try registry.layout(from: layoutValue, path: path.appending("layout"))
        let insets = try Self.insets(object["insets"], path: path.appending("insets"))
        let header = try Self.supplementary(object["header"], path: path.appending("header"))
        let footer = try Self.supplementary(object["footer"], path: path.appending("footer"))
        let background = try reader.bool("background", default: false)
        let items = try Self.items(object["items"], path: path.appending("items"), baseDirectory: baseDirectory)
        let orthogonal = try Self.orthogonal(object["orthogonal"], path: path.appending("orthogonal"))
        self.init(
            id: id, layout: layout, insets: insets, header: header, footer: footer, background: background, items: items, orthogonal: orthogonal
        )
    }

    private static func orthogonal(_ value: JSONValue?, path: JSONPath) throws -> Orthogonal? {
        guard let value, value != .null else { return nil }
        guard case .object(let object) = value else { throw path.error("must be an object with a length, got \(value.typeName)") }
        let reader = LayoutParameters(object: object, path: path)
        try reader.refuseUnknownKeys(["length"])
        return Orthogonal(length: try reader.requiredNumber("length", rule: .positive))
    }

    private static func insets(_ value: JSONValue?, path: JSONPath) throws -> Insets {
        guard let value, value != .null else { return .zero }
        guard case .object(let object) = value else { throw path.error("must be an object with top, left, bottom, right, got \(value.typeName)") }
        let reader = LayoutParameters(object: object, path: path)
        try reader.refuseUnknownKeys(["top", "left", "bottom", "right"])
        return Insets(
            top: try reader.number("top", default: 0),
            left: try reader.number("left", default: 0),
            bottom: try reader.number("bottom", default: 0),
            right: try reader.number("right", default: 0)
        )
    }

    private static func supplementary(_ value: JSONValue?, path: JSONPath) throws -> Supplementary? {
        guard let value, value != .null else { return nil }
        guard case .object(let object) = value else { throw path.error("must be an object with a size, got \(value.typeName)") }
        let reader = LayoutParameters(object: object, path: path)
        try reader.refuseUnknownKeys(["size", "pinned"])
        return Supplementary(size: try reader.requiredNumber("size"), pinned: try reader.bool("pinned", default: false))
    }

    private static func items(_ value: JSONValue?, path: JSONPath, baseDirectory: String?) throws -> ItemSource {
        guard let value, value != .null else { return .list([]) }
        switch value {
        case .array(let values):
            return .list(try values.enumerated().map { index, item in try Item(json: item, path: path.appending(index)) })
        case .object(let object):
            if let segments = object["segments"], segments != .null {
                guard case .array(let parts) = segments, !parts.isEmpty else {
                    throw path.appending("segments").error("must be a non-empty array of item sources")
                }
                return .segments(try parts.enumerated().map { index, part in
                    try Self.items(part, path: path.appending("segments").appending(index), baseDirectory: baseDirectory)
                })
            }
            if let base = object["base"], base != .null {
                let source = try Self.items(base, path: path.appending("base"), baseDirectory: baseDirectory)
                let overrides = try ItemOverrides(json: object["overrides"] ?? .array([]), count: source.knownCount, path: path.appending("overrides"))
                return .overridden(source, overrides)
            }
            if let file = object["file"], file != .null {
                guard case .string(let filePath) = file else { throw path.appending("file").error("must be a string, got \(file.typeName)") }
                guard !filePath.isEmpty else { throw path.appending("file").error("must not be empty") }
                return .file(path: filePath, resolvedPath: FileBytes.resolve(filePath, relativeTo: baseDirectory))
            }
            let reader = LayoutParameters(object: object, path: path)
            guard object["count"] != nil, object["count"] != .null else {
                throw path.error("must be an array of items, {\"count\": N, \"cycle\": [...]} or {\"file\": \"items.ndjson\"}")
            }
            let count = try reader.requiredInteger("count", minimum: 0)
            guard count <= Spec.maximumItemCount else {
                throw path.appending("count").error("must be at most \(Spec.maximumItemCount) (a spec's item limit), got \(count)")
            }
            guard let cycleValue = object["cycle"], cycleValue != .null else { throw path.appending("cycle").error("is required with count") }
            guard case .array(let cycleValues) = cycleValue else {
                throw path.appending("cycle").error("must be an array of items, got \(cycleValue.typeName)")
            }
            if count > 0, cycleValues.isEmpty { throw path.appending("cycle").error("must not be empty when count is above 0") }
            let cycle = try cycleValues.enumerated().map { index, item in
                try Item(json: item, path: path.appending("cycle").appending(index))
            }
            return .cycle(count: count, cycle)
        default:
            throw path.error("must be an array of items, {\"count\": N, \"cycle\": [...]}, {\"file\": \"items.ndjson\"} or {\"segments\": [...]}, got \(value.typeName)")
        }
    }

    /// The section as JSON, as a user would write it.
    public var jsonValue: JSONValue {
        var object = JSONObject()
        if let id { object["id"] = .string(id) }
        var layoutObject = JSONObject()
        layoutObject["kind"] = .string(layout.kind)
        let parameters = layout.parameters
        for (key, value) in zip(parameters.keys, parameters.values) where key != "kind" {
            layoutObject[key] = value
        }
        object["layout"] = .object(layoutObject)
        if insets != .zero {
            object["insets"] = .object(JSONObject([
                "top": .number(insets.top), "left": .number(insets.left),
                "bottom": .number(insets.bottom), "right": .number(insets.right),
            ]))
        }
        if let header { object["header"] = .object(JSONObject(["size": .number(header.size), "pinned": .bool(header.pinned)])) }
        if let footer { object["footer"] = .object(JSONObject(["size": .number(footer.size), "pinned": .bool(footer.pinned)])) }
        if background { object["background"] = .bool(true) }
        if let orthogonal { object["orthogonal"] = .object(JSONObject(["length": .number(orthogonal.length)])) }
        object["items"] = items.jsonValue
        return .object(object)
    }
}

extension ItemSource {
    /// The items as JSON, as a user would write them.
    public var jsonValue: JSONValue {
        switch self {
        case .list(let list):
            .array(list.map(\.jsonValue))
        case .cycle(let count, let cycle):
            .object(JSONObject(["count": .number(Double(count)), "cycle": .array(cycle.map(\.jsonValue))]))
        case .file(let path, _):
            .object(JSONObject(["file": .string(path)]))
        case .segments(let parts):
            .object(JSONObject(["segments": .array(parts.map(\.jsonValue))]))
        case .overridden(let base, let overrides):
            .object(JSONObject(["base": base.jsonValue, "overrides": overrides.jsonValue]))
        }
    }
}
