import TesseraLayout

/// One mutated input: a spec file's bytes and, when one of its sections
/// reads `{"file": "items.ndjson"}`, the bytes of that items file.
public struct SpecMutant: Sendable {
    /// The seed that makes this mutant again (``SpecMutator/mutant(seed:)``).
    public var seed: UInt64
    /// The mutations applied, in order, for a failure message.
    public var mutations: [String]
    /// The spec file.
    public var spec: [UInt8]
    /// The items file `items.ndjson` beside the spec, or nil.
    public var items: [UInt8]?

    /// The mutant for a failure message: the mutations, then each file as
    /// Swift would write it (invalid bytes as `\u{FFFD}`), cut at `limit`
    /// characters.
    public func report(limit: Int = 1500) -> String {
        func shown(_ bytes: [UInt8]) -> String {
            let text = String(decoding: bytes, as: UTF8.self).debugDescription
            return text.count > limit ? String(text.prefix(limit)) + "… (\(bytes.count) bytes)" : text
        }
        var lines = ["seed \(seed): \(mutations.joined(separator: "; "))", "spec: \(shown(spec))"]
        if let items { lines.append("items.ndjson: \(shown(items))") }
        return lines.joined(separator: "\n")
    }
}

/// Mutations of valid specs and items files, for the mutation test: byte
/// flips, truncations, inserted bytes (random, invalid UTF-8, lone
/// surrogate escapes, huge numbers, deep nesting, duplicated keys) and
/// changes of the JSON value (wrong types, negative, huge and non-finite
/// numbers, missing fields, unknown kinds). Every mutant is a function of
/// its seed alone, so a failure is reproduced from the seed it prints.
public struct SpecMutator: Sendable {
    /// The valid specs mutants start from, as JSON text.
    public let corpus: [String]

    /// Mutates `corpus`, which must hold at least one spec.
    public init(corpus: [String]) {
        self.corpus = corpus
    }

    /// A mutant of a spec of the corpus: its value changed one to three
    /// times, then, half the time, its bytes too.
    public func mutant(seed: UInt64) -> SpecMutant {
        var random = SeededRandom(seed: seed)
        let base = corpus[random.int(0...corpus.count - 1)]
        var mutations: [String] = []
        var bytes = Array(base.utf8)
        if random.chance(0.7), var value = try? JSONParser.parse(bytes) {
            for _ in 0..<random.int(1...3) {
                mutations.append(Self.mutateValue(&value, random: &random))
            }
            bytes = MutantWriter.bytes(value)
        }
        if mutations.isEmpty || random.chance(0.5) {
            for _ in 0..<random.int(1...2) {
                mutations.append(Self.mutateBytes(&bytes, random: &random))
            }
        }
        return SpecMutant(seed: seed, mutations: mutations, spec: bytes, items: nil)
    }

    /// Item objects of every kind's fields, for items files.
    static let itemLines = [
        #"{"size": [80, 32]}"#, #"{"fraction": 2, "aspectRatio": 1.5}"#, #"{"scale": 2}"#, #"{"columns": 2, "rows": 1}"#,
        #"{"aspectRatio": 0.75}"#, #"{"length": 220, "columns": 2}"#, #"{"canBeBig": false, "aspectRatio": 1.33}"#, "{}",
        #"{"size": [64, 88], "scale": 1, "rows": 2}"#, #"{"aspectRatio": null}"#,
    ]

    /// A mutant whose one section reads its items from `items.ndjson`:
    /// the first section of a spec of the corpus pointed at the file, and lines of items of
    /// which one to three are mutated (their value or their bytes), with
    /// blank lines, CRLF line ends or no final newline at times.
    public func itemsMutant(seed: UInt64) -> SpecMutant {
        var random = SeededRandom(seed: seed)
        let base = corpus[random.int(0...corpus.count - 1)]
        var spec = Array(base.utf8)
        if case .object(var root)? = try? JSONParser.parse(spec), case .array(let sections)? = root["sections"],
           case .object(var section)? = sections.first {
            section["items"] = .object(JSONObject(["file": .string("items.ndjson")]))
            // Only this section: the items file is what is mutated.
            root["sections"] = .array([.object(section)])
            spec = MutantWriter.bytes(.object(root))
        }
        var lines = (0..<random.int(1...30)).map { _ in Array(Self.itemLines[random.int(0...Self.itemLines.count - 1)].utf8) }
        var mutations: [String] = []
        for _ in 0..<random.int(1...3) {
            let index = random.int(0...lines.count - 1)
            if random.chance(0.5), var value = try? JSONParser.parse(lines[index]) {
                mutations.append("line \(index + 1): " + Self.mutateValue(&value, random: &random))
                lines[index] = MutantWriter.bytes(value)
            } else {
                mutations.append("line \(index + 1): " + Self.mutateBytes(&lines[index], random: &random))
            }
        }
        if random.chance(0.2) {
            lines.insert(random.chance(0.5) ? [] : Array(" \t ".utf8), at: random.int(0...lines.count))
            mutations.append("a blank line")
        }
        let separator: [UInt8] = random.chance(0.2) ? [0x0D, 0x0A] : [0x0A]
        var items = Array(lines.joined(separator: separator))
        if random.chance(0.8) { items += separator }
        return SpecMutant(seed: seed, mutations: mutations, spec: spec, items: items)
    }
}
