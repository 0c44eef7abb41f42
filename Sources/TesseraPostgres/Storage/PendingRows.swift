import NIOCore
import PostgresNIO
import TesseraLayout
import TesseraStore

/// Cell groups and section rows a write has produced but not sent: they go
/// to the server in batches, each one statement over arrays (`unnest`), not
/// a statement per row. Any other statement of the session sends them first,
/// so the transaction sees its own writes in order.
struct PendingRows {
    private struct GroupKey: Hashable {
        var layoutID: Int64
        var slot: Int
        var firstItem: Int
    }

    private struct SectionKey: Hashable {
        var layoutID: Int64
        var index: Int
    }

    /// Frame bytes after which a batch is sent (about 1,000 full groups).
    private static let batchBytes = 8 << 20

    // One array per column (the statement's parameters).
    private var groupRows: [GroupKey: Int] = [:]
    private var groupLayouts: [Int64] = []
    private var groupSlots: [Int] = []
    private var groupFirstItems: [Int] = []
    private var minCross: [Double] = []
    private var maxCross: [Double] = []
    private var minScroll: [Double] = []
    private var maxScroll: [Double] = []
    private var reachStarts: [Double] = []
    private var reachEnds: [Double] = []
    private var reachSlacks: [Double] = []
    private var framesChecksums: [Int64] = []
    private var frames: [ByteBuffer] = []
    private var frameBytes = 0

    private var sectionRows: [SectionKey: (record: SectionRecord, placerState: [UInt8]?)] = [:]
    private var sectionOrder: [SectionKey] = []

    var isEmpty: Bool { groupLayouts.isEmpty && sectionOrder.isEmpty }
    var isFull: Bool { frameBytes >= Self.batchBytes }

    mutating func addGroup(
        layoutID: Int64, slot: Int, firstItem: Int, frames raw: UnsafeRawBufferPointer, bounds: QueryBounds, reach: GroupReach
    ) throws {
        let key = GroupKey(layoutID: layoutID, slot: slot, firstItem: firstItem)
        var buffer = ByteBufferAllocator().buffer(capacity: raw.count)
        buffer.writeBytes(raw)
        let checksum = Checksum.of(raw)
        // A group written twice in one batch: the later one wins (one
        // statement may not change a row twice).
        if let index = groupRows[key] {
            frameBytes += raw.count - frames[index].readableBytes
            (minCross[index], maxCross[index], minScroll[index], maxScroll[index]) =
                (bounds.minCross, bounds.maxCross, bounds.minScroll, bounds.maxScroll)
            (reachStarts[index], reachEnds[index], reachSlacks[index]) = (reach.start, reach.end, reach.slack)
            framesChecksums[index] = checksum
            frames[index] = buffer
            return
        }
        groupRows[key] = groupLayouts.count
        groupLayouts.append(layoutID)
        groupSlots.append(slot)
        groupFirstItems.append(firstItem)
        minCross.append(bounds.minCross)
        maxCross.append(bounds.maxCross)
        minScroll.append(bounds.minScroll)
        maxScroll.append(bounds.maxScroll)
        reachStarts.append(reach.start)
        reachEnds.append(reach.end)
        reachSlacks.append(reach.slack)
        framesChecksums.append(checksum)
        frames.append(buffer)
        frameBytes += raw.count
    }

    mutating func addSection(layoutID: Int64, _ record: SectionRecord, placerState: [UInt8]?) {
        let key = SectionKey(layoutID: layoutID, index: record.geometry.index)
        if sectionRows.updateValue((record, placerState), forKey: key) == nil { sectionOrder.append(key) }
    }

    /// The statements that write the rows, each with its parameters.
    func statements() throws -> [(sql: String, binds: PostgresBindings)] {
        var statements: [(String, PostgresBindings)] = []
        if !sectionOrder.isEmpty { statements.append(try sectionStatement()) }
        if !groupLayouts.isEmpty {
            statements.append(("""
                INSERT INTO cell_groups (
                    layout_id, slot, first_item, min_cross, max_cross, min_scroll, max_scroll, frames_checksum, frames,
                    reach_start, reach_end, reach_slack)
                SELECT * FROM unnest($1::int8[], $2::int8[], $3::int8[], $4::float8[], $5::float8[], $6::float8[], $7::float8[],
                                     $8::int8[], $9::bytea[], $10::float8[], $11::float8[], $12::float8[])
                ON CONFLICT (layout_id, slot, first_item) DO UPDATE SET
                    min_cross = EXCLUDED.min_cross, max_cross = EXCLUDED.max_cross,
                    min_scroll = EXCLUDED.min_scroll, max_scroll = EXCLUDED.max_scroll,
                    frames_checksum = EXCLUDED.frames_checksum, frames = EXCLUDED.frames,
                    reach_start = EXCLUDED.reach_start, reach_end = EXCLUDED.reach_end, reach_slack = EXCLUDED.reach_slack
                """, try .of(
                    groupLayouts, groupSlots, groupFirstItems, minCross, maxCross, minScroll, maxScroll, framesChecksums, frames,
                    reachStarts, reachEnds, reachSlacks
                )))
        }
        return statements
    }

    /// Sections' optional numbers travel as NaN (no size or span is ever
    /// NaN: specs refuse non-finite numbers) and become NULL in SQL.
    private func sectionStatement() throws -> (String, PostgresBindings) {
        var layouts: [Int64] = [], indices: [Int] = [], slots: [Int] = [], starts: [Double] = [], ends: [Double] = []
        var itemCounts: [Int] = [], itemsExtents: [Double] = [], spanLows: [Double] = [], spanHighs: [Double] = []
        var headerSizes: [Double] = [], headerPinned: [Bool] = [], footerSizes: [Double] = [], footerPinned: [Bool] = []
        var backgrounds: [Bool] = [], startInsets: [Double] = [], endInsets: [Double] = [], crossInsets: [Double] = []
        var hasPlacerState: [Bool] = [], placerStates: [ByteBuffer] = [], orthogonalLengths: [Double] = []
        for key in sectionOrder {
            guard let (record, placerState) = sectionRows[key] else { continue }
            let geometry = record.geometry
            layouts.append(key.layoutID)
            indices.append(geometry.index)
            slots.append(record.slot)
            starts.append(geometry.start)
            ends.append(geometry.end)
            itemCounts.append(geometry.itemCount)
            itemsExtents.append(geometry.itemsExtent)
            spanLows.append(geometry.cellSpan?.lowerBound ?? .nan)
            spanHighs.append(geometry.cellSpan?.upperBound ?? .nan)
            headerSizes.append(geometry.header?.size ?? .nan)
            headerPinned.append(geometry.header?.pinned ?? false)
            footerSizes.append(geometry.footer?.size ?? .nan)
            footerPinned.append(geometry.footer?.pinned ?? false)
            backgrounds.append(geometry.background)
            startInsets.append(geometry.scrollStartInset)
            endInsets.append(geometry.scrollEndInset)
            crossInsets.append(geometry.crossStartInset)
            hasPlacerState.append(placerState != nil)
            placerStates.append(ByteBuffer(bytes: placerState ?? []))
            orthogonalLengths.append(geometry.orthogonalContentLength ?? .nan)
        }
        let sql = """
            INSERT INTO layout_sections (layout_id, section, slot, scroll_start, scroll_end, item_count, items_extent,
                cell_span_low, cell_span_high, header_size, header_pinned, footer_size, footer_pinned, background,
                scroll_start_inset, scroll_end_inset, cross_start_inset, placer_state, orthogonal_content_length)
            SELECT l, s, sl, st, en, ic, ie, nullif(cl, 'NaN'), nullif(ch, 'NaN'), nullif(hs, 'NaN'), hp,
                   nullif(fs, 'NaN'), fp, bg, si, ei, ci, CASE WHEN hps THEN ps END, nullif(oc, 'NaN')
            FROM unnest($1::int8[], $2::int8[], $3::int8[], $4::float8[], $5::float8[], $6::int8[], $7::float8[],
                        $8::float8[], $9::float8[], $10::float8[], $11::bool[], $12::float8[], $13::bool[], $14::bool[],
                        $15::float8[], $16::float8[], $17::float8[], $18::bool[], $19::bytea[], $20::float8[])
                AS r(l, s, sl, st, en, ic, ie, cl, ch, hs, hp, fs, fp, bg, si, ei, ci, hps, ps, oc)
            ON CONFLICT (layout_id, section) DO UPDATE SET
                slot = EXCLUDED.slot, scroll_start = EXCLUDED.scroll_start, scroll_end = EXCLUDED.scroll_end,
                item_count = EXCLUDED.item_count, items_extent = EXCLUDED.items_extent,
                cell_span_low = EXCLUDED.cell_span_low, cell_span_high = EXCLUDED.cell_span_high,
                header_size = EXCLUDED.header_size, header_pinned = EXCLUDED.header_pinned,
                footer_size = EXCLUDED.footer_size, footer_pinned = EXCLUDED.footer_pinned,
                background = EXCLUDED.background, scroll_start_inset = EXCLUDED.scroll_start_inset,
                scroll_end_inset = EXCLUDED.scroll_end_inset, cross_start_inset = EXCLUDED.cross_start_inset,
                placer_state = EXCLUDED.placer_state, orthogonal_content_length = EXCLUDED.orthogonal_content_length
            """
        let binds = try PostgresBindings.of(
            layouts, indices, slots, starts, ends, itemCounts, itemsExtents, spanLows, spanHighs, headerSizes, headerPinned,
            footerSizes, footerPinned, backgrounds, startInsets, endInsets, crossInsets, hasPlacerState, placerStates,
            orthogonalLengths
        )
        return (sql, binds)
    }
}
