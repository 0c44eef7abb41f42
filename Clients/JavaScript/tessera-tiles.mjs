// A client of Tessera's layout tiles that answers viewports exactly as the
// server's `/visible` does. No dependencies: browsers and Node ≥ 18.

const KINDS = { c: "cell", h: "header", f: "footer", b: "background" };
const Z_INDEX = { cell: 0, header: 1, footer: 1, background: -1 };
const RANK = { header: 0, cell: 1, footer: 2, background: 3 };

/** Why a TileClient could not answer: the URL it read and what was wrong. */
export class TileClientError extends Error {
  constructor(url, message, status) {
    super(`${url}: ${message}`);
    this.name = "TileClientError";
    this.url = url;
    this.status = status;
  }
}

/**
 * A client of one layout's tiles, from the server (`…/layouts/{extent}/tiles`)
 * or from a static export (`tessera export --tiles`).
 */
export class TileClient {
  /** Reads the manifest at `manifestURL` and resolves to a client. */
  static async open(manifestURL, options = {}) {
    const client = new TileClient(manifestURL, options);
    await client.refresh();
    return client;
  }

  constructor(manifestURL, options = {}) {
    const base = typeof location !== "undefined" ? location.href : undefined;
    this.manifestURL = new URL(String(manifestURL), base).href;
    this.manifest = null;
    this.stats = { tilesFetched: 0, bytesFetched: 0, cacheHits: 0, manifestsFetched: 0, manifestsNotModified: 0 };
    this._fetch = options.fetch ?? ((...args) => globalThis.fetch(...args));
    this._cacheBytes = options.cacheBytes ?? 8 << 20;
    this._columns = options.columns ?? true;
    this._prefetch = options.prefetch ?? true;
    this._maxTiles = Math.max(1, options.maxTiles ?? 64);
    // "revision/index" → {tile, cost}, least recently used first.
    this._cache = new Map();
    this._cachedCost = 0;
    this._loading = new Map();
    this._lastScroll = null;
    this._prefetching = null;
  }

  /**
   * Revalidates the manifest (If-None-Match with its ETag); when the revision
   * changed, drops the old revision's tiles. Resolves to the current manifest.
   */
  async refresh() {
    const headers = {};
    if (this.manifest?.etag) headers["If-None-Match"] = this.manifest.etag;
    const response = await this._get(this.manifestURL, headers);
    this.stats.manifestsFetched += 1;
    if (response.status === 304 && this.manifest) {
      this.stats.manifestsNotModified += 1;
      await response.arrayBuffer().catch(() => {});
      return this.manifest;
    }
    if (response.status !== 200) {
      await response.arrayBuffer().catch(() => {});
      throw new TileClientError(this.manifestURL, `the answer's status is ${response.status}`, response.status);
    }
    const text = await response.text();
    this._countBytes(response, text);
    const fresh = parseManifest(parseJSON(text, this.manifestURL), this.manifestURL, response.headers.get("ETag"));
    if (fresh.revision !== this.manifest?.revision) {
      for (const [key, entry] of this._cache) {
        if (!key.startsWith(fresh.revision + "/")) {
          this._cache.delete(key);
          this._cachedCost -= entry.cost;
        }
      }
    }
    this.manifest = fresh;
    return fresh;
  }

  /**
   * The object `/visible?rect=…` answers for `rect` ({x, y, width, height}),
   * `direction` "ltr" or "rtl", carousels scrolled by `offsets` ({section: x}).
   */
  async visible(rect, { direction = "ltr", offsets = {} } = {}) {
    if (direction !== "ltr" && direction !== "rtl") throw new TypeError(`direction must be "ltr" or "rtl", not ${direction}`);
    for (const value of [rect?.x, rect?.y, rect?.width, rect?.height]) {
      if (typeof value !== "number" || !Number.isFinite(value)) throw new TypeError("rect needs finite x, y, width and height");
    }
    if (!(rect.width >= 0 && rect.height >= 0)) throw new TypeError("rect's width and height must be at least 0");
    for (const [section, offset] of Object.entries(offsets)) {
      if (!/^\d+$/.test(section) || typeof offset !== "number" || !Number.isFinite(offset)) {
        throw new TypeError(`offsets maps section numbers to finite numbers, not ${section}: ${offset}`);
      }
    }
    const manifest = this.manifest ?? (await this.refresh());
    try {
      return await this._answer(rect, direction, offsets, manifest);
    } catch (error) {
      // A tile of a revision no longer current answers 404: follow the new one, once.
      if (!(error instanceof TileClientError) || error.status !== 404) throw error;
      const fresh = await this.refresh();
      if (fresh.revision === manifest.revision) throw error;
      return await this._answer(rect, direction, offsets, fresh);
    }
  }

  /** Resolves when the prefetch under way, if any, has finished. */
  async waitForPrefetch() {
    await this._prefetching;
  }

  /** The number of decoded tiles kept, and their estimated bytes. */
  get cache() {
    return { tiles: this._cache.size, bytes: this._cachedCost, budget: this._cacheBytes };
  }

  async _answer(rect, direction, offsets, manifest) {
    const { axis, contentSize } = manifest;
    const vertical = axis === "vertical";
    const rtl = direction === "rtl";
    const mirrorWidth = contentSize[0];
    // Right to left: the left-to-right answer for the mirrored rect, mirrored.
    const view = rtl ? { x: mirrorWidth - rect.x - rect.width, y: rect.y, width: rect.width, height: rect.height } : rect;
    const scroll = vertical ? view.y : view.x;
    const scrollEnd = vertical ? view.y + view.height : view.x + view.width;
    const [first, last] = coveringTiles(scroll, scrollEnd, manifest.tileLength, manifest.tileCount);
    if (last - first + 1 > this._maxTiles) {
      throw new TileClientError(manifest.url, `the viewport needs ${last - first + 1} tiles, more than maxTiles (${this._maxTiles}); nothing was fetched`);
    }

    const pending = [];
    for (let index = first; index <= last; index++) pending.push(this._load(index, manifest));
    const tiles = await Promise.all(pending);
    const backward = this._lastScroll !== null && scroll < this._lastScroll;
    this._lastScroll = scroll;
    if (this._prefetch) this._startPrefetch(backward ? first - 1 : last + 1, manifest);

    const pinning = new Map();
    const orthogonal = new Map();
    for (const tile of tiles) {
      for (const entry of tile.pinning) pinning.set(entry.section, entry);
      for (const entry of tile.orthogonal) orthogonal.set(entry.section, entry.contentLength);
    }
    const viewMaxX = view.x + view.width;
    const viewMaxY = view.y + view.height;
    const seen = new Set();
    const result = [];
    for (const tile of tiles) {
      for (const element of tile.elements) {
        const { kind, section } = element;
        if (kind === "header" || kind === "footer") {
          const entry = pinning.get(section);
          if (entry && (kind === "header" ? entry.headerPinned : entry.footerPinned)) continue;
        }
        let [x, y, width, height] = element.frame;
        if (kind === "cell" && orthogonal.has(section)) {
          // A carousel's cells meet the rect moved by +offset across the feed,
          // and are reported moved by −offset (the server's sums, bit for bit).
          const offset = offsets[section] ?? 0;
          if (vertical) {
            const crossStart = offset + view.x;
            if (!(x < crossStart + view.width && crossStart < x + width && y < viewMaxY && view.y < y + height)) continue;
            x = -offset + x;
          } else {
            const crossStart = offset + view.y;
            if (!(x < viewMaxX && view.x < x + width && y < crossStart + view.height && crossStart < y + height)) continue;
            y = -offset + y;
          }
        } else if (!(x < viewMaxX && view.x < x + width && y < viewMaxY && view.y < y + height)) {
          continue;
        }
        const key = elementKey(element);
        if (seen.has(key)) continue;
        seen.add(key);
        result.push(x === element.frame[0] && y === element.frame[1] ? element : { ...element, frame: [x, y, width, height] });
      }
    }
    for (const entry of pinning.values()) {
      for (const pinned of pinnedElements(entry, scroll, scrollEnd, vertical)) {
        const [x, y, width, height] = pinned.frame;
        if (x < viewMaxX && view.x < x + width && y < viewMaxY && view.y < y + height) result.push(pinned);
      }
    }
    result.sort(compareElements);

    const answer = { axis, extent: manifest.extent, contentSize: [contentSize[0], contentSize[1]] };
    const sections = [];
    let previous = null;
    for (const element of result) {
      if (element.section !== previous && orthogonal.has(element.section) && !sections.includes(element.section)) {
        sections.push(element.section);
      }
      previous = element.section;
    }
    if (sections.length > 0) {
      answer.orthogonal = sections.sort((a, b) => a - b).map((section) => ({ section, contentLength: orthogonal.get(section) }));
    }
    answer.elements = result.map((element) => {
      const [x, y, width, height] = element.frame;
      const out = { kind: element.kind, section: element.section };
      if (element.item !== undefined) out.item = element.item;
      out.frame = [rtl ? mirrorWidth - x - width : x, y, width, height];
      out.zIndex = element.zIndex;
      return out;
    });
    return answer;
  }

  _load(index, manifest) {
    const key = `${manifest.revision}/${index}`;
    const entry = this._cache.get(key);
    if (entry) {
      this._cache.delete(key);
      this._cache.set(key, entry);
      this.stats.cacheHits += 1;
      return Promise.resolve(entry.tile);
    }
    let loading = this._loading.get(key);
    if (!loading) {
      loading = this._download(index, manifest).finally(() => this._loading.delete(key));
      this._loading.set(key, loading);
      loading.then(
        (tile) => {
          // Kept only while its revision is the current one.
          if (this.manifest?.revision === manifest.revision) this._keep(key, tile);
        },
        () => {},
      );
    }
    return loading;
  }

  _keep(key, tile) {
    const old = this._cache.get(key);
    if (old) {
      this._cache.delete(key);
      this._cachedCost -= old.cost;
    }
    this._cache.set(key, { tile, cost: tile.cost });
    this._cachedCost += tile.cost;
    for (const [oldest, entry] of this._cache) {
      if (this._cachedCost <= this._cacheBytes || this._cache.size <= 1) break;
      this._cache.delete(oldest);
      this._cachedCost -= entry.cost;
    }
  }

  async _download(index, manifest) {
    const columns = this._columns && manifest.columnTiles !== undefined;
    const template = columns ? manifest.columnTiles : manifest.tiles;
    const url = new URL(template.replace("{index}", String(index)), manifest.url).href;
    const response = await this._get(url, {});
    if (response.status !== 200) {
      await response.arrayBuffer().catch(() => {});
      throw new TileClientError(url, `the answer's status is ${response.status}`, response.status);
    }
    const text = await response.text();
    this._countBytes(response, text);
    this.stats.tilesFetched += 1;
    return decodeTile(parseJSON(text, url), index, manifest, url, columns, text.length);
  }

  _startPrefetch(index, manifest) {
    if (index < 0 || index >= manifest.tileCount) return;
    const key = `${manifest.revision}/${index}`;
    if (this._cache.has(key) || this._loading.has(key)) return;
    // A failure is left for the read that needs the tile.
    this._prefetching = this._load(index, manifest).then(
      () => {},
      () => {},
    );
  }

  async _get(url, headers) {
    try {
      return await this._fetch(url, { headers });
    } catch (error) {
      throw new TileClientError(url, `no answer: ${error?.message ?? error}`);
    }
  }

  _countBytes(response, text) {
    // The bytes on the wire when the server says (gzip), else the body's.
    const length = Number(response.headers.get("Content-Length"));
    this.stats.bytesFetched += Number.isFinite(length) && length > 0 ? length : byteLength(text);
  }
}

/** Tiles first…last (inclusive) meet [scroll, scrollEnd) along the scroll axis. */
function coveringTiles(scroll, scrollEnd, tileLength, tileCount) {
  const last = Math.max(0, tileCount - 1);
  const clamped = (value) => {
    if (!Number.isFinite(value)) return value > 0 ? last : 0;
    return value <= 0 ? 0 : value >= last ? last : Math.trunc(value);
  };
  const first = clamped(Math.floor(scroll / tileLength));
  return [first, Math.max(first, clamped(Math.ceil(scrollEnd / tileLength) - 1))];
}

/** A section's pinned header and footer (zIndex 2), left to right. */
function pinnedElements(entry, viewStart, viewEnd, vertical) {
  const pinned = [];
  const place = (element, position) => {
    const frame = element.frame.slice();
    const size = vertical ? frame[3] : frame[2];
    frame[vertical ? 1 : 0] = position(vertical ? frame[1] : frame[0], size);
    pinned.push({ kind: element.kind, section: element.section, frame, zIndex: 2 });
  };
  if (entry.headerPinned && entry.header) {
    place(entry.header, (original, size) => Math.max(original, Math.min(viewStart, entry.cells[1] - size)));
  }
  if (entry.footerPinned && entry.footer) {
    place(entry.footer, (original, size) => Math.max(entry.cells[0] - entry.scrollStartInset, Math.min(original, viewEnd - size)));
  }
  return pinned;
}

function elementKey(element) {
  return `${element.section} ${RANK[element.kind]} ${element.item ?? 0}`;
}

function compareElements(a, b) {
  return a.section - b.section || RANK[a.kind] - RANK[b.kind] || (a.item ?? 0) - (b.item ?? 0);
}

function parseJSON(text, url) {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new TileClientError(url, `the body is not JSON: ${error.message}`);
  }
}

const encoder = new TextEncoder();

function byteLength(text) {
  return /^[\x00-\x7f]*$/.test(text) ? text.length : encoder.encode(text).length;
}

function invalid(url, message) {
  return new TileClientError(url, message);
}

function finite(value) {
  return typeof value === "number" && Number.isFinite(value);
}

function parseManifest(json, url, etag) {
  const fail = (message) => invalid(url, `not a tile manifest: ${message}`);
  if (json === null || typeof json !== "object") throw fail("expected an object");
  const { revision, tileLength, tileCount, contentSize, tiles, axis, extent, columnTiles } = json;
  if (typeof revision !== "string" || !/^[A-Za-z0-9_-]{1,128}$/.test(revision)) throw fail("revision: expected letters, digits, '-' or '_'");
  if (!finite(tileLength) || tileLength <= 0) throw fail("tileLength: expected a number above 0");
  if (!Number.isInteger(tileCount) || tileCount < 1) throw fail("tileCount: expected a whole number, at least 1");
  if (axis !== "vertical" && axis !== "horizontal") throw fail('axis: expected "vertical" or "horizontal"');
  if (!finite(extent) || extent <= 0) throw fail("extent: expected a number above 0");
  if (!Array.isArray(contentSize) || contentSize.length !== 2 || !contentSize.every(finite)) throw fail("contentSize: expected [w, h]");
  for (const [key, template] of [["tiles", tiles], ["columnTiles", columnTiles]]) {
    if (template === undefined && key === "columnTiles") continue;
    if (typeof template !== "string" || template.split("{index}").length !== 2) throw fail(`${key}: expected a template with one {index}`);
  }
  return { url, etag: etag ?? undefined, revision, tileLength, tileCount, contentSize, tiles, axis, extent, columnTiles };
}

function decodeTile(json, index, manifest, url, columns, length) {
  const fail = (message) => invalid(url, `not tile ${index} of revision ${manifest.revision}: ${message}`);
  if (json === null || typeof json !== "object") throw fail("expected an object");
  if (json.revision !== manifest.revision) throw fail("revision differs from the manifest's");
  if (json.index !== index) throw fail(`index: expected ${index}`);
  if (json.tileLength !== manifest.tileLength || json.axis !== manifest.axis || json.extent !== manifest.extent) {
    throw fail("tileLength, axis or extent differs from the manifest's");
  }
  if (!Array.isArray(json.contentSize) || json.contentSize[0] !== manifest.contentSize[0] || json.contentSize[1] !== manifest.contentSize[1]) {
    throw fail("contentSize differs from the manifest's");
  }
  // Carousel offsets and right to left are applied here, from the stored frames.
  if (json.direction !== "ltr") throw fail('direction: expected "ltr" (open the left-to-right manifest and pass direction to visible())');
  const orthogonal = json.orthogonal ?? [];
  const pinning = json.pinning;
  if (!Array.isArray(orthogonal) || !Array.isArray(pinning)) throw fail("orthogonal and pinning must be arrays");
  for (const entry of pinning) {
    if (!Array.isArray(entry?.cells) || entry.cells.length !== 2 || !entry.cells.every(finite)) throw fail("pinning: cells must be [a, b]");
    if (!finite(entry.scrollStartInset)) throw fail("pinning: scrollStartInset must be a number");
    if (entry.header) checkElement(entry.header, fail);
    if (entry.footer) checkElement(entry.footer, fail);
  }
  let elements;
  if (columns) {
    elements = decodeColumns(json, manifest.axis === "vertical", fail);
  } else {
    if (!Array.isArray(json.elements)) throw fail("elements must be an array");
    elements = json.elements;
    for (const element of elements) checkElement(element, fail);
  }
  // A rough size of the decoded tile, for the cache's byte budget.
  const cost = 256 + 120 * elements.length + 400 * pinning.length + (columns ? 0 : length);
  return { index, elements, pinning, orthogonal, cost };
}

function checkElement(element, fail) {
  const frame = element?.frame;
  if (!(element?.kind in RANK) || !Number.isInteger(element.section) || !Array.isArray(frame) || frame.length !== 4 || !frame.every(finite)) {
    throw fail(`not an element: ${JSON.stringify(element)}`);
  }
  if (element.kind === "cell" && !Number.isInteger(element.item)) throw fail(`a cell without an item: ${JSON.stringify(element)}`);
}

/** The elements of a column tile, frames rebuilt with the encoder's own sums. */
function decodeColumns(json, vertical, fail) {
  const { count, kind, section, item, cross, crossLength, scrollLength, scroll, zIndex } = json;
  if (!Number.isInteger(count) || count < 0) throw fail("count: expected a whole number");
  if (typeof kind !== "string" || kind.length !== count) throw fail(`kind: expected ${count} letters`);
  const column = (name, values, length) => {
    if (!Array.isArray(values) || values.length !== length) throw fail(`${name}: expected ${length} values`);
    return values;
  };
  let cells = 0;
  for (const letter of kind) {
    if (!(letter in KINDS)) throw fail(`kind: ${letter} is not c, h, f or b`);
    if (letter === "c") cells += 1;
  }
  column("section", section, count);
  column("item", item, cells);
  column("cross", cross, count);
  column("crossLength", crossLength, count);
  column("scrollLength", scrollLength, count);
  column("scroll", scroll, count);
  if (zIndex !== undefined) column("zIndex", zIndex, count);

  // Each lane (same cross start, bit for bit: -0 apart from 0) → the end of its last element.
  const lanes = new Map();
  const lane = (value) => (value === 0 && 1 / value < 0 ? "-0" : value);
  const elements = new Array(count);
  let currentSection = 0;
  let previousSection = -1;
  let previousItem = -1;
  let cell = 0;
  for (let i = 0; i < count; i++) {
    const elementKind = KINDS[kind[i]];
    currentSection += section[i];
    if (!Number.isInteger(currentSection) || currentSection < 0) throw fail(`section[${i}]: the differences add up to ${currentSection}`);
    let elementItem;
    if (elementKind === "cell") {
      elementItem = (previousSection === currentSection ? previousItem : -1) + item[cell];
      if (!Number.isInteger(elementItem) || elementItem < 0) throw fail(`item[${cell}]: the differences add up to ${elementItem}`);
      previousSection = currentSection;
      previousItem = elementItem;
      cell += 1;
    }
    const c = cross[i];
    const cl = crossLength[i];
    const sl = scrollLength[i];
    const s = scroll[i];
    let position;
    if (typeof s === "number") {
      const end = lanes.get(lane(c));
      if (end === undefined) throw fail(`scroll[${i}]: a gap, but no earlier element of its lane`);
      position = end + s;
    } else if (Array.isArray(s) && s.length === 1 && finite(s[0])) {
      position = s[0];
    } else {
      throw fail(`scroll[${i}]: expected a gap or [position]`);
    }
    if (!finite(c) || !finite(cl) || !finite(sl) || !finite(position)) throw fail(`element ${i}: expected finite numbers`);
    lanes.set(lane(c), position + sl);
    const frame = vertical ? [c, position, cl, sl] : [position, c, sl, cl];
    const element = { kind: elementKind, section: currentSection };
    if (elementItem !== undefined) element.item = elementItem;
    element.frame = frame;
    element.zIndex = zIndex ? zIndex[i] : Z_INDEX[elementKind];
    elements[i] = element;
  }
  return elements;
}
