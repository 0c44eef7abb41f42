import TesseraLayout

/// A consumer that counts the frames it receives per (section, item), so a
/// test can check what a layout streams rather than what a result holds (a
/// result keeps one frame per position, which hides a duplicate).
public struct ItemRecorder: LayoutConsumer {
    /// Per section, in the order sections began: frames received per item.
    public private(set) var receipts: [[Int: Int]] = []
    /// The section indices, in the order they began.
    public private(set) var sectionsBegun: [Int] = []
    /// Cells that arrived for a section other than the one that had begun.
    public private(set) var misfiled = 0

    public init() {}

    public mutating func beginSection(_ index: Int, origin: SectionOrigin) throws {
        sectionsBegun.append(index)
        receipts.append([:])
    }

    public mutating func consumeCells(_ frames: [PlacedFrame], section: Int, origin: SectionOrigin) throws {
        guard section == sectionsBegun.last else {
            misfiled += frames.count
            return
        }
        for placed in frames { receipts[receipts.count - 1][placed.item, default: 0] += 1 }
    }

    public mutating func endSection(_ geometry: SectionGeometry, placer: any ItemPlacer) throws {}

    /// What is wrong with section `index` if it should hold items
    /// 0..<itemCount, each received once; empty when all is well.
    public func problems(section index: Int, itemCount: Int) -> [String] {
        guard let position = sectionsBegun.firstIndex(of: index) else { return ["section \(index) never began"] }
        let received = receipts[position]
        var problems: [String] = []
        for item in 0..<itemCount where received[item] != 1 {
            problems.append("item \(item) received \(received[item] ?? 0) times")
        }
        for item in received.keys.sorted() where !(0..<itemCount).contains(item) {
            problems.append("item \(item) is not one of the section's \(itemCount) items")
        }
        return problems
    }
}
