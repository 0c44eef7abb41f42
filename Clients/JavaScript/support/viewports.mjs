// What the client's tests share, in Node and in a browser: the specs they lay
// out, a seeded generator and random viewports. No Node module: a page imports it.

/**
 * The specs the tests lay out: examples, and longer copies of them (many
 * tiles, pinned footers). `readExample(file)` gives an example's JSON object.
 */
export function testLayouts(readExample) {
  const home = readExample("home-feed.json");
  const carousel = readExample("carousel-feed.json");
  const shelf = readExample("horizontal-shelf.json");

  const longHome = structuredClone(home);
  for (const section of longHome.sections) section.items.count *= 40;
  longHome.sections[1].footer = { size: 30, pinned: true };
  longHome.sections[3].footer.pinned = true;

  const longCarousel = structuredClone(carousel);
  for (const section of longCarousel.sections) {
    if (Array.isArray(section.items)) section.items = Array.from({ length: 30 }, () => section.items).flat();
    else section.items.count *= 30;
  }
  longCarousel.sections[0].footer = { size: 20, pinned: true };
  longCarousel.sections[4].footer.pinned = true;
  longCarousel.sections[4].header.pinned = true;

  // A horizontal feed with a carousel (it scrolls vertically).
  shelf.sections.push({
    id: "rows",
    orthogonal: { length: 140 },
    layout: { kind: "grid", aspectRatio: 1.25, lineSpacing: 8 },
    header: { size: 28, pinned: true },
    footer: { size: 20 },
    insets: { top: 8, left: 8, bottom: 8, right: 8 },
    items: { count: 14, cycle: [{}] },
  });
  const longShelf = structuredClone(shelf);
  for (const section of longShelf.sections) section.items.count *= 30;
  longShelf.sections[0].footer = { size: 24, pinned: true };
  longShelf.sections[1].header.pinned = true;

  return [
    { name: "home", spec: home, extents: ["--width", "390", "--width", "820"] },
    { name: "carousels", spec: carousel, extents: ["--width", "390"] },
    { name: "shelf", spec: shelf, extents: ["--height", "300"] },
    { name: "long-home", spec: longHome, extents: ["--width", "390"] },
    { name: "long-carousels", spec: longCarousel, extents: ["--width", "390"] },
    { name: "long-shelf", spec: longShelf, extents: ["--height", "300"] },
  ];
}

// A small seeded generator, so that a failure can be run again.
export function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A random viewport of the layout of `manifest` (some of them empty, some
 * touching one of `frames`), direction and carousel offsets.
 */
export function randomQuery(next, manifest, frames) {
  const round = (value) => (next() < 0.3 ? Math.round(value) : value);
  const [width, height] = manifest.contentSize;
  const vertical = manifest.axis === "vertical";
  const viewWidth = round(vertical ? (next() < 0.5 ? width : next() * (width + 100)) : next() * 1800);
  const viewHeight = round(vertical ? next() * 1800 : next() < 0.5 ? height : next() * (height + 100));
  const rect = {
    x: round(vertical ? next() * 200 - 100 : next() * (width + 600) - 300),
    y: round(vertical ? next() * (height + 600) - 300 : next() * 200 - 100),
    width: next() < 0.03 ? 0 : viewWidth,
    height: next() < 0.03 ? 0 : viewHeight,
  };
  // Edges that touch an element's, whose elements must be left out.
  if (frames.length > 0 && next() < 0.3) {
    const [x, y, w, h] = frames[Math.floor(next() * frames.length)];
    if (next() < 0.5) [rect.x, rect.y] = [x + w, y + h];
    else [rect.x, rect.y] = [x - rect.width, y - rect.height];
  }
  const direction = next() < 0.5 ? "rtl" : "ltr";
  const offsets = {};
  if (next() < 0.7) {
    for (const section of [1, 2, 3, 4]) if (next() < 0.6) offsets[section] = round(next() * 1200 - 200);
  }
  return { rect, direction, offsets };
}
