extension MozaikLayout {
    /// Places mozaik items: the matrix state is an occupancy grid for the
    /// dense order and a skyline (each column's first row below its items)
    /// for the ordered one.
    struct Placer: ResumableItemPlacer {
        let widths: [Double]
        /// The start of each column: Σ_{k<col}(width_k + itemSpacing).
        let offsets: [Double]
        let rowHeight: Double
        let itemSpacing: Double
        let lineSpacing: Double
        let order: Order
        var cells: OccupancyGrid
        /// Dense order, per block size (key (rows−1)·columns + columns−1): a
        /// position (row·columns + column) before which no block of that
        /// size is free. Cells are never freed, so this stays true and each
        /// size's search goes on from where the previous one stopped.
        var hints: [Int: Int] = [:]
        /// Ordered: per column, the first row below all of its items.
        var bottoms: [Int]
        var extent = 0.0
        /// Reused by the ordered search; not part of the state.
        private var window: [Int] = []

        private enum CodingKeys: String, CodingKey {
            case widths, offsets, rowHeight, itemSpacing, lineSpacing, order, cells, hints, bottoms, extent
        }

        init(widths: [Double], rowHeight: Double, itemSpacing: Double, lineSpacing: Double, order: Order) {
            self.widths = widths
            var offsets: [Double] = []
            offsets.reserveCapacity(widths.count)
            var offset = 0.0
            for width in widths {
                offsets.append(offset)
                offset += width + itemSpacing
            }
            self.offsets = offsets
            self.rowHeight = rowHeight
            self.itemSpacing = itemSpacing
            self.lineSpacing = lineSpacing
            self.order = order
            cells = OccupancyGrid(columns: order == .dense ? widths.count : 1)
            bottoms = order == .ordered ? Array(repeating: 0, count: widths.count) : []
        }

        var openItems: Range<Int> { 0..<0 }

        mutating func place(_ item: Item, index: Int, location: ItemLocation, into sink: inout FrameSink) throws {
            let matrixColumns = widths.count
            let columns = try item.positiveInteger(.columns, at: location) ?? 1
            let rows = try item.positiveInteger(.rows, at: location) ?? 1
            if columns > matrixColumns {
                throw location.error(.columns, "\(columns) columns requested, the matrix has \(matrixColumns)")
            }
            if rows > MozaikLayout.maximumRowSpan {
                throw location.error(.rows, "must be at most \(MozaikLayout.maximumRowSpan), got \(rows)")
            }
            let position = order == .dense ? placeDense(columns: columns, rows: rows) : placeOrdered(columns: columns, rows: rows)

            var width = widths[position.column]
            for column in (position.column + 1)..<(position.column + columns) { width += widths[column] }
            let frame = LocalFrame(
                cross: offsets[position.column],
                scroll: Double(position.row) * (rowHeight + lineSpacing),
                crossLength: width + Double(columns - 1) * itemSpacing,
                scrollLength: Double(rows) * rowHeight + Double(rows - 1) * lineSpacing
            )
            extent = max(extent, frame.scrollEnd)
            sink.emit(item: index, frame: frame)
        }

        private mutating func placeDense(columns: Int, rows: Int) -> (row: Int, column: Int) {
            let matrixColumns = widths.count
            let key = (rows - 1) * matrixColumns + (columns - 1)
            let start = hints[key] ?? seedHint(columns: columns, rows: rows)
            let found = cells.firstFree(width: columns, height: rows, row: start / matrixColumns, column: start % matrixColumns)
            cells.reserve(row: found.row, column: found.column, width: columns, height: rows)
            hints[key] = found.row * matrixColumns + found.column
            return found
        }

        /// A first hint for a new block size: where no smaller block (in both
        /// directions) fits, this one does not either. Scanning every known
        /// size is bounded so that many distinct sizes cannot make it
        /// quadratic; beyond that the nearest smaller sizes are enough.
        private func seedHint(columns: Int, rows: Int) -> Int {
            let matrixColumns = widths.count
            var seed = 0
            if hints.count <= 64 {
                for (key, hint) in hints where key % matrixColumns < columns && key / matrixColumns < rows {
                    seed = max(seed, hint)
                }
            } else {
                if columns > 1, let hint = hints[(rows - 1) * matrixColumns + columns - 2] { seed = max(seed, hint) }
                if rows > 1, let hint = hints[(rows - 2) * matrixColumns + columns - 1] { seed = max(seed, hint) }
                if let hint = hints[0] { seed = max(seed, hint) }
            }
            // The grid also starts every search at its first row with a free cell.
            return seed
        }

        /// The skyline search: the start column whose spanned columns reach
        /// the least far down, ties to the leftmost, with a sliding-window
        /// maximum so that it costs one pass over the columns.
        private mutating func placeOrdered(columns: Int, rows: Int) -> (row: Int, column: Int) {
            let matrixColumns = bottoms.count
            if window.count != matrixColumns { window = Array(repeating: 0, count: matrixColumns) }
            var head = 0
            var tail = 0
            var bestRow = Int.max
            var bestColumn = 0
            for column in 0..<matrixColumns {
                let bottom = bottoms[column]
                while tail > head && bottoms[window[tail - 1]] <= bottom { tail -= 1 }
                window[tail] = column
                tail += 1
                if window[head] <= column - columns { head += 1 }
                if column >= columns - 1 && bottoms[window[head]] < bestRow {
                    bestRow = bottoms[window[head]]
                    bestColumn = column - columns + 1
                }
            }
            for column in bestColumn..<(bestColumn + columns) { bottoms[column] = bestRow + rows }
            return (bestRow, bestColumn)
        }

        func finish(into sink: inout FrameSink) -> Double {
            extent
        }
    }
}
