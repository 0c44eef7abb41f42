/// The cells of a matrix with a fixed number of columns and unbounded rows,
/// each free or taken, for the kinds that back-fill holes (scaledGrid,
/// mozaik's dense order).
///
/// Rows are bitmasks of 64-column words. Cells are only ever taken, never
/// freed, which is what keeps a search hint (a position before which some
/// block cannot fit) true forever. Fully taken rows at the top are dropped,
/// so memory follows the open part of the matrix rather than the section.
struct OccupancyGrid: Sendable, Codable {
    /// The widest matrix supported: memory per row grows with the columns,
    /// and a row of a few thousand cells is already far beyond any screen.
    static let maximumColumns = 4096

    let columns: Int
    let wordsPerRow: Int
    /// Bits past the last column in a row's last word, always set so that
    /// a run of free cells never extends beyond the matrix.
    let padding: UInt64
    /// Every row before this one is fully taken.
    private(set) var firstOpenRow = 0
    /// The row that `words` starts with; rows before it were dropped (full).
    private var firstStoredRow = 0
    private var words: [UInt64] = []
    /// Reused for the union of a block's rows; not part of the state.
    private var scratch: [UInt64] = []

    private enum CodingKeys: String, CodingKey {
        case columns, wordsPerRow, padding, firstOpenRow, firstStoredRow, words
    }

    /// A matrix of `columns` columns (1 ... maximumColumns), all cells free.
    init(columns: Int) {
        self.columns = columns
        wordsPerRow = (columns + 63) / 64
        let usedBits = columns % 64
        padding = usedBits == 0 ? 0 : ~0 << UInt64(usedBits)
    }

    private var storedRowsEnd: Int { firstStoredRow + words.count / wordsPerRow }

    /// The rows kept in memory (those not dropped as full).
    var storedRowCount: Int { words.count / wordsPerRow }

    /// The first position in row-major order, from `row`, `column` on, where
    /// a `width`×`height` block of free cells starts (width ≤ columns).
    /// Positions past the last column that can hold the block are skipped.
    mutating func firstFree(width: Int, height: Int, row startRow: Int, column startColumn: Int) -> (row: Int, column: Int) {
        var row = startRow
        var column = startColumn
        if row < firstOpenRow { row = firstOpenRow; column = 0 }
        if scratch.count != wordsPerRow { scratch = Array(repeating: 0, count: wordsPerRow) }
        let lastStart = columns - width
        while true {
            if column <= lastStart {
                let end = storedRowsEnd
                // Rows never written are free: the search always ends there.
                if row >= end { return (row, column) }
                let windowEnd = min(row + height, end)
                // A row with no room for the block anywhere rules out every
                // start row above it in the window: jump past it. Without
                // this, a tall block after another one retries each of the
                // other's rows, at a cost that grows with the square of height.
                if height > 1, let blocked = lastBlockedRow(from: row, to: windowEnd, width: width) {
                    row = blocked + 1
                    column = 0
                    continue
                }
                unionOfRows(row, windowEnd)
                if let found = firstRun(of: width, from: column) { return (row, found) }
            }
            row += 1
            column = 0
        }
    }

    /// Marks a block taken. The block must be free, at or after `firstOpenRow`.
    mutating func reserve(row: Int, column: Int, width: Int, height: Int) {
        let rowsNeeded = row + height - firstStoredRow
        let storedRows = words.count / wordsPerRow
        if rowsNeeded > storedRows {
            for _ in storedRows..<rowsNeeded {
                for _ in 0..<(wordsPerRow - 1) { words.append(0) }
                words.append(padding)
            }
        }
        let firstWord = column >> 6
        let lastWord = (column + width - 1) >> 6
        for taken in row..<(row + height) {
            let base = (taken - firstStoredRow) * wordsPerRow
            for word in firstWord...lastWord {
                let low = word == firstWord ? column & 63 : 0
                let high = word == lastWord ? (column + width - 1) & 63 : 63
                words[base + word] |= Self.mask(from: low, through: high)
            }
        }
        advanceFirstOpenRow()
    }

    private mutating func advanceFirstOpenRow() {
        let end = storedRowsEnd
        while firstOpenRow < end && isFull(firstOpenRow) { firstOpenRow += 1 }
        // Dropping rows shifts the array: do it rarely and in bulk, so its
        // cost stays proportional to the rows dropped.
        let droppable = firstOpenRow - firstStoredRow
        if droppable >= 256 && droppable * 2 >= end - firstStoredRow {
            words.removeFirst(droppable * wordsPerRow)
            firstStoredRow = firstOpenRow
        }
    }

    private func isFull(_ row: Int) -> Bool {
        let base = (row - firstStoredRow) * wordsPerRow
        for word in base..<(base + wordsPerRow) where words[word] != ~0 { return false }
        return true
    }

    /// The lowest row in `from..<to` (all stored) without `width` free
    /// cells side by side, or nil.
    private mutating func lastBlockedRow(from: Int, to: Int, width: Int) -> Int? {
        var row = to - 1
        while row >= from {
            let base = (row - firstStoredRow) * wordsPerRow
            for word in 0..<wordsPerRow { scratch[word] = words[base + word] }
            if firstRun(of: width, from: 0) == nil { return row }
            row -= 1
        }
        return nil
    }

    /// Sets `scratch` to the union of the taken cells of rows `from..<to`
    /// (all stored).
    private mutating func unionOfRows(_ from: Int, _ to: Int) {
        var base = (from - firstStoredRow) * wordsPerRow
        for word in 0..<wordsPerRow { scratch[word] = words[base + word] }
        for _ in (from + 1)..<max(from + 1, to) {
            base += wordsPerRow
            for word in 0..<wordsPerRow { scratch[word] |= words[base + word] }
        }
    }

    /// The first column ≥ start where `width` free cells of `scratch` start.
    private func firstRun(of width: Int, from start: Int) -> Int? {
        var position = start
        while position + width <= columns {
            guard let free = nextBit(from: position, limit: columns, taken: false), free + width <= columns else { return nil }
            let taken = nextBit(from: free, limit: free + width, taken: true) ?? (free + width)
            if taken - free >= width { return free }
            position = taken
        }
        return nil
    }

    /// The first column in start..<limit whose cell in `scratch` is taken
    /// (or free), or nil.
    private func nextBit(from start: Int, limit: Int, taken: Bool) -> Int? {
        var word = start >> 6
        let lastWord = (limit - 1) >> 6
        guard start < limit else { return nil }
        var bits = (taken ? scratch[word] : ~scratch[word]) & (~0 << UInt64(start & 63))
        while true {
            if bits != 0 {
                let found = word << 6 + bits.trailingZeroBitCount
                return found < limit ? found : nil
            }
            word += 1
            if word > lastWord { return nil }
            bits = taken ? scratch[word] : ~scratch[word]
        }
    }

    private static func mask(from low: Int, through high: Int) -> UInt64 {
        let upper: UInt64 = high == 63 ? ~0 : (1 << UInt64(high + 1)) - 1
        return upper & (~0 << UInt64(low))
    }
}
