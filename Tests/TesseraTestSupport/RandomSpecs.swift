import TesseraLayout

/// A small deterministic generator (SplitMix64), so every failure names a
/// seed that reproduces it.
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &self) }
    public mutating func double(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &self) }
    public mutating func chance(_ probability: Double) -> Bool { double(0...1) < probability }
    /// A number rounded to quarters, so that worked-out sums are often exact
    /// and ties (equal bottoms, touching edges) actually happen.
    public mutating func quarter(_ range: ClosedRange<Double>) -> Double { (double(range) * 4).rounded() / 4 }
    /// A number rounded down to quarters, so that it never passes the range's top.
    public mutating func quarterDown(_ range: ClosedRange<Double>) -> Double { (double(range) * 4).rounded(.down) / 4 }
}

/// Every kind of the contract.
public let allKinds = ["flow", "grid", "scaledGrid", "mozaik", "pattern", "staggered", "mosaic"]

/// Random specs of every kind, as JSON text, with the cross extent to use.
public struct RandomSpecGenerator {
    var random: SeededRandom
    var kinds: [String]
    /// How likely a section is orthogonal (a carousel, L from 80 to 300
    /// points); 0 keeps the specs of a seed as they were before carousels.
    public var carouselChance = 0.0

    public init(seed: UInt64, kinds: [String]) {
        random = SeededRandom(seed: seed)
        self.kinds = kinds
    }

    public mutating func spec(maxSections: Int = 4, maxItems: Int = 60) -> (json: String, extent: Double) {
        spec(sections: 1...maxSections, items: 1...maxItems)
    }

    /// A spec whose non-empty sections hold a number of items in `items`
    /// (one in ten is empty); `axis` nil picks one at random.
    public mutating func spec(sections sectionCount: ClosedRange<Int>, items: ClosedRange<Int>, axis: Axis? = nil) -> (json: String, extent: Double) {
        let extent = random.quarter(200...800)
        let randomAxis: Axis = random.chance(0.5) ? .vertical : .horizontal
        let axis = (axis ?? randomAxis).rawValue
        var sections: [String] = []
        for _ in 0..<random.int(sectionCount) {
            sections.append(section(extent: extent, items: items))
        }
        let json = """
        {"format": 1, "axis": "\(axis)", "sectionSpacing": \(random.quarter(0...20)), "sections": [\(sections.joined(separator: ",\n"))]}
        """
        return (json, extent)
    }

    private mutating func section(extent: Double, items itemCounts: ClosedRange<Int>) -> String {
        let kind = kinds[random.int(0...(kinds.count - 1))]
        let left = random.chance(0.5) ? random.quarter(0...20) : 0
        let right = random.chance(0.5) ? random.quarter(0...20) : 0
        let top = random.chance(0.5) ? random.quarter(0...20) : 0
        let bottom = random.chance(0.5) ? random.quarter(0...20) : 0
        // The cross-axis insets are left/right in a vertical spec and
        // top/bottom in a horizontal one; keep both small against the extent.
        var available = extent - max(left + right, top + bottom)
        var parts = ["\"insets\": {\"top\": \(top), \"left\": \(left), \"bottom\": \(bottom), \"right\": \(right)}"]
        if carouselChance > 0, random.chance(carouselChance) {
            // A carousel's kind runs at its length, less the insets along the feed.
            let length = random.quarter(80...300)
            available = length - max(left + right, top + bottom)
            parts.append("\"orthogonal\": {\"length\": \(length)}")
        }
        if random.chance(0.4) { parts.append("\"header\": {\"size\": \(random.quarter(0...60)), \"pinned\": \(random.chance(0.5))}") }
        if random.chance(0.3) { parts.append("\"footer\": {\"size\": \(random.quarter(0...40)), \"pinned\": \(random.chance(0.5))}") }
        if random.chance(0.3) { parts.append("\"background\": true") }
        let count = random.chance(0.1) ? 0 : random.int(itemCounts)
        let (layout, makeItem) = kindParameters(kind, available: available)
        parts.append("\"layout\": \(layout)")
        if random.chance(0.2), count > 0 {
            let cycle = (0..<random.int(1...5)).map { _ in makeItem(&random) }
            parts.append("\"items\": {\"count\": \(count), \"cycle\": [\(cycle.joined(separator: ", "))]}")
        } else {
            let items = (0..<count).map { _ in makeItem(&random) }
            parts.append("\"items\": [\(items.joined(separator: ", "))]")
        }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    private typealias ItemMaker = (inout SeededRandom) -> String

    private mutating func kindParameters(_ kind: String, available: Double) -> (String, ItemMaker) {
        switch kind {
        case "flow":
            let alignment = ["justified", "start", "center", "end"][random.int(0...3)]
            let spacing = random.quarter(0...10)
            let layout = "{\"kind\": \"flow\", \"itemSpacing\": \(spacing), \"lineSpacing\": \(random.quarter(0...10)), \"alignment\": \"\(alignment)\"}"
            return (layout, { random in
                // Both on-screen lengths stay within the available extent,
                // whichever one is the cross length.
                "{\"size\": [\(random.quarter(0...(available / 2))), \(random.quarter(0...(available / 2)))]}"
            })
        case "grid":
            let fraction = random.int(1...4)
            let spacing = random.quarter(0...8)
            let layout = "{\"kind\": \"grid\", \"fraction\": \(fraction), \"aspectRatio\": \(random.quarter(0.5...2)), \"itemSpacing\": \(spacing), \"lineSpacing\": \(random.quarter(0...8)), \"alignment\": \"\(["justified", "start", "center", "end"][random.int(0...3)])\"}"
            return (layout, { random in
                random.chance(0.5) ? "{\"fraction\": \(random.int(1...5)), \"aspectRatio\": \(random.quarter(0.5...3))}" : "{}"
            })
        case "scaledGrid":
            let layout = "{\"kind\": \"scaledGrid\", \"divisions\": \(random.int(1...6)), \"spacing\": \(random.quarter(0...6)), \"aspectRatio\": \(random.quarter(0.5...2))}"
            return (layout, { random in "{\"scale\": \(random.chance(0.6) ? 1 : random.int(1...4))}" })
        case "mozaik":
            let columns = random.int(1...5)
            let itemSpacing = random.quarter(0...4)
            let columnsJSON: String
            if random.chance(0.4) {
                columnsJSON = "\"columnCount\": \(columns)"
            } else {
                // Explicit widths are laid out as given, even past avail (the
                // contract allows it): about a third of these matrices are
                // wider than avail, the others fit in it.
                let share = (available - Double(columns - 1) * itemSpacing) / Double(columns)
                let widths = random.chance(0.35) ? share...(share * 1.5 + 10) : 0...share
                columnsJSON = "\"columns\": [\((0..<columns).map { _ in "\(random.quarterDown(widths))" }.joined(separator: ", "))]"
            }
            let layout = "{\"kind\": \"mozaik\", \(columnsJSON), \"rowHeight\": \(random.quarter(10...60)), \"itemSpacing\": \(itemSpacing), \"lineSpacing\": \(random.quarter(0...4)), \"order\": \"\(random.chance(0.5) ? "dense" : "ordered")\"}"
            return (layout, { random in
                "{\"columns\": \(random.chance(0.6) ? 1 : random.int(1...columns)), \"rows\": \(random.chance(0.6) ? 1 : random.int(1...3))}"
            })
        case "pattern":
            let blocks = [
                "{\"units\": 3, \"gutter\": \(random.quarter(0...4)), \"frames\": [[0, 0, 2, 2], [2, 0, 1, 1], [2, 1, 1, 1]]}",
                "{\"units\": 3, \"unitAspect\": \(random.quarter(0.5...2)), \"frames\": [[0, 0, 1, 1], [1, 0, 1, 1], [2, 0, 1, 1]], \"repeated\": \(random.chance(0.3))}",
                "{\"units\": 4, \"frames\": [[0, 0, 1, 1], [1, 0, 1, 1], [2, 0, 2, 2], [0, 1, 2, 1]]}",
            ]
            let used = (0..<random.int(1...3)).map { _ in blocks[random.int(0...2)] }
            let layout = "{\"kind\": \"pattern\", \"blocks\": [\(used.joined(separator: ", "))], \"spacing\": {\"before\": \(random.quarter(0...10)), \"between\": \(random.quarter(0...10)), \"after\": \(random.quarter(0...10))}}"
            return (layout, { _ in "{}" })
        case "staggered":
            let columns = random.int(1...4)
            let layout = "{\"kind\": \"staggered\", \"columns\": \(columns), \"itemSpacing\": \(random.quarter(0...8)), \"lineSpacing\": \(random.quarter(0...8)), \"placement\": \"\(random.chance(0.7) ? "shortest" : "roundRobin")\"}"
            return (layout, { random in
                let span = random.chance(0.7) ? 1 : random.int(1...columns)
                return random.chance(0.5)
                    ? "{\"length\": \(random.quarter(0...120)), \"columns\": \(span)}"
                    : "{\"aspectRatio\": \(random.quarter(0.25...3)), \"columns\": \(span)}"
            })
        case "mosaic":
            let layout = "{\"kind\": \"mosaic\", \"columns\": \(random.int(1...4)), \"lineMultiple\": \(random.quarter(1...30)), \"itemSpacing\": \(random.quarter(0...8)), \"lineSpacing\": \(random.quarter(0...8))}"
            return (layout, { random in
                "{\"aspectRatio\": \(random.quarter(0.25...3)), \"canBeBig\": \(random.chance(0.7))}"
            })
        default:
            fatalError("the generator does not know the kind \(kind)")
        }
    }
}
