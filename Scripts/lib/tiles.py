"""The tiles a viewport meets, as TiledViewport.tiles(covering:) counts them
(Sources/TesseraLayout): for the scripts that simulate or measure tiles."""


def covering(start, length, tile_length, tile_count):
    """The indices of the tiles [i·T, (i+1)·T) that a viewport [start, start + length) meets."""
    end = start + length
    first = int(start // tile_length)
    last = int(min(tile_count - 1, end // tile_length - (1 if end % tile_length == 0 else 0)))
    return range(first, max(first, last) + 1)
