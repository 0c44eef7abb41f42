// The Tessera viewer: a feed's layout drawn on a canvas from its tiles.
// Scrolling is virtual (a position of its own, wheel, drag, keys and a
// scrollbar): a feed of millions of items is far longer than any element a
// browser lays out, and only the visible boxes are drawn.
import { TileClient } from "./tessera-tiles.js";

const LISTING_PAGE = 100;
const MAX_EXTENT = 100000;
const AUTOSCROLL_SPEED = 3000;
const SAMPLES = 600;
const LINE = 40;
// The decoded tiles kept (the client's estimate of their bytes); `?cache=` in the URL sets it.
const CACHE_BYTES = { standard: 8 << 20, least: 64 << 10, most: 256 << 20 };
// Canvas geometry is single precision: frames are moved to the viewport's
// origin in JavaScript's doubles before they are drawn.
const HEADER_FILL = "#37474f";
const FOOTER_FILL = "#78909c";
const LABEL_FILL = "#263238";
const HIGHLIGHT = "#e0245e";

const $ = (id) => document.getElementById(id);

/** Where the feeds come from: tessera-server's routes, or a static export's listing. */
class ServerSource {
  constructor(api) {
    this.api = api;
    this.kind = "server";
  }
  async feeds(after) {
    const query = new URLSearchParams({ limit: String(LISTING_PAGE) });
    if (after !== null) query.set("after", after);
    const page = await getJSON(new URL(`v1/feeds?${query}`, this.api));
    if (!Array.isArray(page?.specs)) throw new Error("the feed listing has no specs");
    return { specs: page.specs, next: typeof page.next === "string" ? page.next : null };
  }
  async feed(name) {
    return await getJSON(new URL(`v1/feeds/${encodeURIComponent(name)}`, this.api));
  }
  manifestURL(name, extent) {
    return new URL(`v1/feeds/${encodeURIComponent(name)}/layouts/${extent}/tiles`, this.api);
  }
  async item(name, extent, section, item) {
    return await getJSON(new URL(`v1/feeds/${encodeURIComponent(name)}/layouts/${extent}/items/${section}/${item}`, this.api));
  }
}

class ExportSource {
  constructor(specs) {
    this.specs = specs;
    this.kind = "export";
  }
  async feeds() {
    return { specs: this.specs, next: null };
  }
  async feed(name) {
    const spec = this.specs.find((entry) => entry.name === name);
    if (!spec) throw new Error(`the export holds no feed named ${JSON.stringify(name)}`);
    return spec;
  }
  manifestURL(name, extent) {
    return new URL(`v1/feeds/${encodeURIComponent(name)}/layouts/${extent}/tiles`, location.href);
  }
}

async function getJSON(url) {
  const response = await fetch(url);
  const text = await response.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${url.pathname}: status ${response.status}, not JSON`);
  }
  if (!response.ok) throw new Error(json?.detail ?? `${url.pathname}: status ${response.status}`);
  return json;
}

/** viewer.json beside the page says which source it is. */
async function loadSource() {
  const json = await getJSON(new URL("viewer.json", location.href));
  if (json?.source === "server" && typeof json.api === "string") return new ServerSource(new URL(json.api, location.href));
  if (json?.source === "export" && Array.isArray(json.specs)) return new ExportSource(json.specs);
  throw new Error("viewer.json names neither a server nor an export");
}

const cellFills = new Map();
const backgroundFills = new Map();
/** The colours of `tessera render`: a hue per section. */
function fill(element) {
  const hue = (element.section * 137) % 360;
  switch (element.kind) {
    case "header":
      return HEADER_FILL;
    case "footer":
      return FOOTER_FILL;
    case "background":
      if (!backgroundFills.has(hue)) backgroundFills.set(hue, `hsl(${hue}, 40%, 94%)`);
      return backgroundFills.get(hue);
    default:
      if (!cellFills.has(hue)) cellFills.set(hue, `hsl(${hue}, 60%, 72%)`);
      return cellFills.get(hue);
  }
}

function percentile(values, fraction) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
}

function formatBytes(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1 << 20) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1 << 20)).toFixed(1)} MiB`;
}

class Viewer {
  constructor() {
    this.canvas = $("canvas");
    this.context = this.canvas.getContext("2d", { alpha: false });
    this.stage = $("stage");
    this.track = $("track");
    this.thumb = $("thumb");
    this.source = null;
    this.next = null;
    this.specs = new Map();
    this.spec = null;
    this.client = null;
    this.manifest = null;
    this.opening = 0;
    this.direction = "ltr";
    this.offsets = {};
    this.carousels = new Map();
    this.scroll = 0;
    this.size = { width: 0, height: 0 };
    this.answer = null;
    this.drawnRect = null;
    this.drawnKey = null;
    this.rendering = 0;
    this.dirty = false;
    this.scheduled = false;
    this.lastFrame = null;
    this.autoscrollSpeed = 0;
    this.frameDeltas = [];
    this.workTimes = [];
    this.waiters = [];
    this.highlight = null;
    this.drag = null;
    this.errors = [];
    this.cacheBytes = CACHE_BYTES.standard;
    this.shown = null;
  }

  async start() {
    this.bind();
    const params = new URLSearchParams(location.search);
    $("rtl").checked = params.get("rtl") === "1";
    this.direction = $("rtl").checked ? "rtl" : "ltr";
    const cache = Number(params.get("cache") ?? CACHE_BYTES.standard);
    this.cacheBytes = Number.isFinite(cache) ? Math.min(Math.max(cache, CACHE_BYTES.least), CACHE_BYTES.most) : CACHE_BYTES.standard;
    this.source = await loadSource();
    $("new-width-form").hidden = this.source.kind !== "server";
    $("jump-form").hidden = this.source.kind !== "server";
    await this.loadFeeds(null);
    if (this.source.kind === "export") this.showContents();
    const wanted = params.get("feed");
    let spec = wanted === null ? this.specs.values().next().value : this.specs.get(wanted);
    if (wanted !== null && !spec) spec = this.addSpec(await this.source.feed(wanted));
    if (!spec) return this.say("No feed to show: the store holds no spec.");
    $("feed").value = spec.name;
    const width = Number(params.get("width") ?? NaN);
    await this.openFeed(spec, Number.isFinite(width) ? width : null);
  }

  // Feeds and layouts.

  addSpec(spec) {
    if (typeof spec?.name !== "string" || !Array.isArray(spec.layouts)) throw new Error("a feed entry without a name or layouts");
    if (!this.specs.has(spec.name)) {
      const option = document.createElement("option");
      option.value = spec.name;
      option.textContent = spec.name;
      $("feed").append(option);
    }
    this.specs.set(spec.name, spec);
    return spec;
  }

  async loadFeeds(after) {
    const page = await this.source.feeds(after);
    for (const spec of page.specs) this.addSpec(spec);
    this.next = page.next;
    $("more-feeds").hidden = this.next === null;
  }

  showContents() {
    const contents = $("contents");
    const list = document.createElement("ul");
    for (const spec of this.specs.values()) {
      const item = document.createElement("li");
      const layouts = spec.layouts.map((layout) => `${layout.extent} (revision ${layout.revision}, ${layout.tileCount} tiles${layout.rtl ? ", right to left too" : ""})`);
      item.textContent = `${spec.name}, ${spec.axis}: ${spec.axis === "horizontal" ? "heights" : "widths"} ${layouts.join(", ")}`;
      list.append(item);
    }
    contents.replaceChildren("This export holds:", list);
    contents.hidden = false;
  }

  async openFeed(spec, extent) {
    this.spec = spec;
    // The cross extent: a vertical feed's width, a horizontal one's height.
    $("extent-name").textContent = spec.axis === "horizontal" ? "Height" : "Width";
    const select = $("width");
    select.replaceChildren();
    for (const layout of spec.layouts) {
      const option = document.createElement("option");
      option.value = String(layout.extent);
      option.textContent = layout.state === "stale" ? `${layout.extent} (stale)` : String(layout.extent);
      select.append(option);
    }
    const chosen = extent ?? spec.layouts[0]?.extent;
    if (chosen === undefined) return this.say(`${spec.name} has no stored layout${this.source.kind === "server" ? ": type a width" : ""}.`);
    await this.openLayout(chosen);
  }

  async openLayout(extent) {
    if (!(Number.isFinite(extent) && extent > 0 && extent <= MAX_EXTENT)) return this.say(`A width must be a number above 0 and at most ${MAX_EXTENT}.`);
    const opening = ++this.opening;
    const name = this.spec.name;
    if (![...$("width").options].some((option) => Number(option.value) === extent)) {
      const option = document.createElement("option");
      option.value = String(extent);
      option.textContent = `${extent} (new)`;
      $("width").append(option);
    }
    $("width").value = String(extent);
    this.say(`Opening ${name} at ${extent}…`);
    let client;
    try {
      client = await TileClient.open(this.source.manifestURL(name, extent), { cacheBytes: this.cacheBytes });
    } catch (error) {
      const limits = error.status === 404 && this.source.kind === "server" ? " (a server computes a new width only within its --compute-extents and --max-extents)" : "";
      if (opening === this.opening) this.say(`${name} at ${extent}: ${error.message}${limits}`);
      return;
    }
    if (opening !== this.opening) return;
    this.client = client;
    this.manifest = client.manifest;
    this.shown = name;
    this.offsets = {};
    this.carousels.clear();
    this.answer = null;
    this.highlight = null;
    this.scroll = 0;
    this.say("");
    const params = new URLSearchParams(location.search);
    params.set("feed", name);
    params.set("width", String(extent));
    if (this.direction === "rtl") params.set("rtl", "1");
    else params.delete("rtl");
    history.replaceState(null, "", `?${params}`);
    this.resize();
  }

  // Geometry.

  get vertical() {
    return this.manifest?.axis !== "horizontal";
  }

  get viewLength() {
    return this.vertical ? this.size.height : this.size.width;
  }

  get maxScroll() {
    if (!this.manifest) return 0;
    const content = this.vertical ? this.manifest.contentSize[1] : this.manifest.contentSize[0];
    return Math.max(0, content - this.viewLength);
  }

  viewRect() {
    const extent = this.manifest.extent;
    return this.vertical
      ? { x: 0, y: this.scroll, width: extent, height: this.size.height }
      : { x: this.scroll, y: 0, width: this.size.width, height: extent };
  }

  /** What the frame drawn depends on besides the rect. */
  settingsKey() {
    return `${this.manifest?.revision} ${this.direction} ${JSON.stringify(this.offsets)}`;
  }

  resize() {
    if (!this.manifest) return;
    const extent = this.manifest.extent;
    const width = this.vertical ? extent : Math.max(1, this.stage.clientWidth);
    const height = this.vertical ? Math.max(1, this.stage.clientHeight) : extent;
    const ratio = window.devicePixelRatio || 1;
    this.size = { width, height };
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    this.canvas.width = Math.round(width * ratio);
    this.canvas.height = Math.round(height * ratio);
    this.track.className = this.vertical ? "vertical" : "horizontal";
    this.track.style.left = this.vertical ? `${width}px` : "0";
    this.track.style.top = this.vertical ? "0" : `${height}px`;
    this.track.style.height = this.vertical ? `${height}px` : "12px";
    this.track.style.width = this.vertical ? "12px" : `${width}px`;
    this.setScroll(this.scroll, true);
  }

  setScroll(position, force = false) {
    const clamped = Math.min(Math.max(0, Number.isFinite(position) ? position : 0), this.maxScroll);
    if (clamped === this.scroll && !force) return;
    this.scroll = clamped;
    this.invalidate();
  }

  setOffset(section, offset) {
    const length = this.carousels.get(section) ?? 0;
    const clamped = Math.min(Math.max(0, offset), Math.max(0, length - this.manifest.extent));
    if ((this.offsets[section] ?? 0) === clamped) return;
    if (clamped === 0) delete this.offsets[section];
    else this.offsets[section] = clamped;
    this.invalidate();
  }

  invalidate() {
    this.dirty = true;
    this.requestFrame();
  }

  // Frames.

  requestFrame() {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame((now) => this.frame(now));
  }

  frame(now) {
    this.scheduled = false;
    if (this.autoscrollSpeed !== 0 && this.manifest) {
      if (this.lastFrame !== null) {
        const delta = now - this.lastFrame;
        this.record(this.frameDeltas, delta);
        let position = this.scroll + (this.autoscrollSpeed * delta) / 1000;
        if (position >= this.maxScroll || position <= 0) this.autoscrollSpeed = -this.autoscrollSpeed;
        this.setScroll(position);
      }
      this.lastFrame = now;
      this.requestFrame();
    } else {
      this.lastFrame = null;
    }
    if (this.dirty && this.client) {
      this.dirty = false;
      this.render();
    }
    this.placeThumb();
  }

  record(samples, value) {
    samples.push(value);
    if (samples.length > SAMPLES) samples.splice(0, samples.length - SAMPLES);
  }

  render() {
    const rect = this.viewRect();
    const key = this.settingsKey();
    const token = ++this.rendering;
    const started = performance.now();
    this.client.visible(rect, { direction: this.direction, offsets: { ...this.offsets } }).then(
      (answer) => {
        // A later frame asked for another rect: its answer is drawn instead.
        if (token !== this.rendering) return;
        this.draw(answer, rect);
        this.answer = answer;
        this.drawnRect = rect;
        this.drawnKey = key;
        for (const entry of answer.orthogonal ?? []) this.carousels.set(entry.section, entry.contentLength);
        this.record(this.workTimes, performance.now() - started);
        this.settle();
      },
      (error) => {
        if (token === this.rendering) this.fail(error);
      },
    );
  }

  draw(answer, rect) {
    const context = this.context;
    const ratio = this.canvas.width / Math.max(1, this.size.width);
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.fillStyle = "#fafafa";
    context.fillRect(0, 0, this.size.width, this.size.height);
    // Backgrounds, cells, headers and footers, pinned ones last (zIndex order).
    for (const z of [-1, 0, 1, 2]) {
      let current = null;
      for (const element of answer.elements) {
        if (element.zIndex !== z) continue;
        const colour = fill(element);
        if (colour !== current) {
          context.fillStyle = colour;
          current = colour;
        }
        const [x, y, width, height] = element.frame;
        context.fillRect(x - rect.x, y - rect.y, width, height);
      }
      if (z === 0) this.label(answer.elements, rect);
    }
    // Each header names its section, at the start of the reading direction.
    const rtl = this.direction === "rtl";
    context.fillStyle = "#fff";
    context.textAlign = rtl ? "right" : "left";
    for (const element of answer.elements) {
      if (element.kind !== "header" || element.frame[3] < 16 || element.frame[2] < 90) continue;
      const [x, y, width, height] = element.frame;
      context.fillText(`section ${element.section}`, x - rect.x + (rtl ? width - 10 : 10), y - rect.y + height / 2);
    }
    if (this.highlight) {
      const target = answer.elements.find((element) => element.kind === "cell" && element.section === this.highlight.section && element.item === this.highlight.item);
      if (target) {
        const [x, y, width, height] = target.frame;
        context.strokeStyle = HIGHLIGHT;
        context.lineWidth = 3;
        context.strokeRect(x - rect.x + 1.5, y - rect.y + 1.5, width - 3, height - 3);
      }
    }
  }

  /** Item numbers, where they fit. */
  label(elements, rect) {
    const context = this.context;
    context.font = "12px sans-serif";
    context.textAlign = "center";
    context.textBaseline = "middle";
    context.fillStyle = LABEL_FILL;
    for (const element of elements) {
      if (element.kind !== "cell") continue;
      const [x, y, width, height] = element.frame;
      const text = String(element.item);
      if (height < 16 || width < text.length * 7 + 8) continue;
      context.fillText(text, x - rect.x + width / 2, y - rect.y + height / 2);
    }
  }

  placeThumb() {
    const along = this.vertical ? this.size.height : this.size.width;
    const total = along + this.maxScroll;
    const length = Math.max(24, (along * along) / Math.max(total, 1));
    const position = this.maxScroll > 0 ? ((along - length) * this.scroll) / this.maxScroll : 0;
    const style = this.thumb.style;
    if (this.vertical) {
      style.top = `${position}px`;
      style.height = `${length}px`;
      style.left = style.width = "";
    } else {
      style.left = `${position}px`;
      style.width = `${length}px`;
      style.top = style.height = "";
    }
    this.thumbLength = length;
  }

  /** Resolves the waiters once the frame drawn is the one asked for. */
  settle() {
    if (!this.isDrawn()) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  isDrawn() {
    if (!this.manifest || !this.drawnRect || this.dirty) return false;
    const rect = this.viewRect();
    const drawn = this.drawnRect;
    return drawn.x === rect.x && drawn.y === rect.y && drawn.width === rect.width && drawn.height === rect.height && this.drawnKey === this.settingsKey();
  }

  drawn() {
    if (this.isDrawn()) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  // Input.

  bind() {
    $("jump-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.jump().catch((error) => this.fail(error));
    });
    $("new-width-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.openLayout($("new-width").valueAsNumber).catch((error) => this.fail(error));
    });
    $("feed").addEventListener("change", () => {
      const spec = this.specs.get($("feed").value);
      if (spec) this.openFeed(spec, null).catch((error) => this.fail(error));
    });
    $("more-feeds").addEventListener("click", () => this.loadFeeds(this.next).catch((error) => this.fail(error)));
    $("width").addEventListener("change", () => this.openLayout(Number($("width").value)).catch((error) => this.fail(error)));
    $("rtl").addEventListener("change", () => {
      this.direction = $("rtl").checked ? "rtl" : "ltr";
      if (this.spec && this.manifest) this.invalidate();
    });
    $("play").addEventListener("click", () => this.autoscroll(this.autoscrollSpeed === 0 ? AUTOSCROLL_SPEED : 0));
    new ResizeObserver(() => this.resize()).observe(this.stage);
    this.canvas.addEventListener("wheel", (event) => this.wheel(event), { passive: false });
    this.canvas.addEventListener("pointerdown", (event) => this.pointerDown(event));
    this.canvas.addEventListener("pointermove", (event) => this.pointerMove(event));
    this.canvas.addEventListener("pointerup", () => (this.drag = null));
    this.canvas.addEventListener("pointercancel", () => (this.drag = null));
    this.thumb.addEventListener("pointerdown", (event) => this.thumbDown(event));
    this.thumb.addEventListener("pointermove", (event) => this.thumbMove(event));
    this.thumb.addEventListener("pointerup", () => (this.drag = null));
    this.track.addEventListener("pointerdown", (event) => {
      if (event.target !== this.track || !this.manifest) return;
      const box = this.thumb.getBoundingClientRect();
      const before = this.vertical ? event.clientY < box.top : event.clientX < box.left;
      this.setScroll(this.scroll + (before ? -1 : 1) * (this.viewLength - LINE));
    });
    document.addEventListener("keydown", (event) => this.key(event));
    window.addEventListener("error", (event) => this.fail(event.error ?? event.message));
    window.addEventListener("unhandledrejection", (event) => this.fail(event.reason));
    setInterval(() => this.showFigures(), 250);
  }

  /** The carousel (orthogonal section) under a point of the canvas, if any. */
  carouselAt(clientX, clientY) {
    if (!this.answer || !this.drawnRect) return null;
    const box = this.canvas.getBoundingClientRect();
    const x = clientX - box.left + this.drawnRect.x;
    const y = clientY - box.top + this.drawnRect.y;
    for (const element of this.answer.elements) {
      if (element.kind !== "cell" || !this.carousels.has(element.section)) continue;
      const [ex, ey, width, height] = element.frame;
      // The whole band of the carousel across the feed, not only its cells.
      const inside = this.vertical ? y >= ey && y < ey + height : x >= ex && x < ex + width;
      if (inside) return element.section;
    }
    return null;
  }

  /** A sideways move of a carousel by `delta` points on screen. */
  moveCarousel(section, delta) {
    // Right to left, a positive offset moves the cells right (spec format, "Right-to-left").
    const sign = this.direction === "rtl" && this.vertical ? 1 : -1;
    this.setOffset(section, (this.offsets[section] ?? 0) + sign * delta);
  }

  wheel(event) {
    if (!this.manifest) return;
    event.preventDefault();
    const unit = event.deltaMode === 1 ? LINE : event.deltaMode === 2 ? this.viewLength : 1;
    const dx = event.deltaX * unit;
    const dy = event.deltaY * unit;
    const sideways = event.shiftKey ? dy : dx;
    const carousel = this.carouselAt(event.clientX, event.clientY);
    if (carousel !== null && (event.shiftKey || Math.abs(dx) > Math.abs(dy))) {
      this.moveCarousel(carousel, -sideways);
      return;
    }
    this.setScroll(this.scroll + (this.vertical || Math.abs(dy) >= Math.abs(dx) ? dy : dx));
  }

  pointerDown(event) {
    if (!this.manifest || event.button !== 0) return;
    this.canvas.focus();
    this.canvas.setPointerCapture(event.pointerId);
    this.drag = { kind: null, x: event.clientX, y: event.clientY, carousel: this.carouselAt(event.clientX, event.clientY) };
  }

  pointerMove(event) {
    const drag = this.drag;
    if (!drag || drag.kind === "thumb") return;
    const dx = event.clientX - drag.x;
    const dy = event.clientY - drag.y;
    if (drag.kind === null) {
      if (Math.abs(dx) + Math.abs(dy) < 4) return;
      const across = this.vertical ? Math.abs(dx) > Math.abs(dy) : Math.abs(dy) > Math.abs(dx);
      drag.kind = drag.carousel !== null && across ? "carousel" : "scroll";
    }
    drag.x = event.clientX;
    drag.y = event.clientY;
    if (drag.kind === "carousel") this.moveCarousel(drag.carousel, this.vertical ? dx : dy);
    else this.setScroll(this.scroll - (this.vertical ? dy : dx));
  }

  thumbDown(event) {
    if (!this.manifest || event.button !== 0) return;
    event.stopPropagation();
    this.thumb.setPointerCapture(event.pointerId);
    this.drag = { kind: "thumb", start: this.vertical ? event.clientY : event.clientX, scroll: this.scroll };
  }

  thumbMove(event) {
    const drag = this.drag;
    if (!drag || drag.kind !== "thumb") return;
    const along = this.vertical ? this.size.height : this.size.width;
    const room = Math.max(1, along - this.thumbLength);
    const moved = (this.vertical ? event.clientY : event.clientX) - drag.start;
    this.setScroll(drag.scroll + (moved * this.maxScroll) / room);
  }

  key(event) {
    if (!this.manifest || event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
    const page = this.viewLength - LINE;
    const steps = {
      ArrowDown: LINE, ArrowUp: -LINE, PageDown: page, PageUp: -page, " ": event.shiftKey ? -page : page,
      ...(this.vertical ? {} : { ArrowRight: LINE, ArrowLeft: -LINE }),
    };
    if (event.key === "Home") this.setScroll(0);
    else if (event.key === "End") this.setScroll(this.maxScroll);
    else if (event.key in steps) this.setScroll(this.scroll + steps[event.key]);
    else return;
    event.preventDefault();
  }

  async jump() {
    if (!this.manifest || this.source.kind !== "server") return;
    const section = $("jump-section").valueAsNumber;
    const item = $("jump-item").valueAsNumber;
    if (!Number.isInteger(section) || !Number.isInteger(item) || section < 0 || item < 0) {
      return this.say("Jump: the section and the item are whole numbers, 0 or more.");
    }
    const answer = await this.source.item(this.spec.name, this.manifest.extent, section, item);
    const cell = answer?.elements?.[0];
    if (!Array.isArray(cell?.frame)) return this.say("Jump: the answer holds no cell.");
    const [x, y, width, height] = cell.frame;
    const carousel = (answer.orthogonal ?? []).find((entry) => entry.section === section);
    if (carousel) {
      this.carousels.set(section, carousel.contentLength);
      // Its frame is unscrolled: scroll the carousel to bring it to the middle.
      const across = this.vertical ? x + width / 2 : y + height / 2;
      this.setOffset(section, across - this.manifest.extent / 2);
    }
    const along = this.vertical ? y + height / 2 : x + width / 2;
    this.highlight = { section, item };
    this.say("");
    this.setScroll(along - this.viewLength / 2, true);
  }

  autoscroll(speed) {
    this.autoscrollSpeed = Number.isFinite(speed) ? speed : 0;
    this.lastFrame = null;
    $("play").textContent = this.autoscrollSpeed === 0 ? "Autoscroll" : "Stop";
    this.requestFrame();
  }

  // Status and figures.

  say(text) {
    $("status").textContent = text;
  }

  fail(error) {
    const message = error?.message ?? String(error);
    this.errors.push(message);
    this.say(message);
  }

  showFigures() {
    const stats = this.client?.stats;
    $("tiles").textContent = String(stats?.tilesFetched ?? 0);
    $("bytes").textContent = formatBytes(stats?.bytesFetched ?? 0);
    $("elements").textContent = String(this.answer?.elements.length ?? 0);
    $("revision").textContent = this.manifest?.revision ?? "–";
    $("position").textContent = `${Math.round(this.scroll).toLocaleString("en")} of ${Math.round(this.maxScroll).toLocaleString("en")}`;
    const frame = percentile(this.frameDeltas, 0.95);
    const work = percentile(this.workTimes, 0.95);
    $("frame").textContent = `${frame === null ? "–" : frame.toFixed(1) + " ms"} (work ${work === null ? "–" : work.toFixed(1) + " ms"})`;
  }

  /** What scripts (tests, benchmarks) read and drive. */
  api() {
    return {
      state: () => ({
        source: this.source?.kind ?? null,
        // The feed drawn (the one chosen may still be opening).
        feed: this.shown,
        extent: this.manifest?.extent ?? null,
        axis: this.manifest?.axis ?? null,
        revision: this.manifest?.revision ?? null,
        direction: this.direction,
        offsets: { ...this.offsets },
        scroll: this.scroll,
        maxScroll: this.maxScroll,
        size: { ...this.size },
        drawnRect: this.drawnRect,
        drawn: this.isDrawn(),
        stats: this.client ? { ...this.client.stats } : null,
        cache: this.client?.cache ?? null,
        errors: [...this.errors],
      }),
      elements: () => this.answer?.elements ?? [],
      scrollTo: (position) => {
        this.setScroll(position);
        return this.drawn();
      },
      drawn: () => this.drawn(),
      autoscroll: (speed) => this.autoscroll(speed),
      /** rAF intervals while autoscrolling, and each frame's work (ms); cleared. */
      takeTimes: () => {
        const times = { frames: this.frameDeltas, work: this.workTimes };
        this.frameDeltas = [];
        this.workTimes = [];
        return times;
      },
    };
  }
}

const viewer = new Viewer();
window.tesseraViewer = viewer.api();
viewer.start().catch((error) => viewer.fail(error));
