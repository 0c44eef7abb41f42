// TileClient against a real tessera-server: random viewports compared with
// /visible, then a revision change made through the write route.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { createReadStream, statSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { TileClient } from "../tessera-tiles.mjs";
import { cliPath, precompute, readExample, removeDirectory, startServer, temporaryDirectory } from "../support/tessera-server.mjs";

const TOKEN = "js-client-test-token";
const VIEWPORTS = 500;

// Specs from the examples, and longer copies of them (many tiles, pinned footers).
function layouts() {
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
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let directory;
let server;
let storePath;

before(async () => {
  directory = temporaryDirectory();
  const db = path.join(directory, "store.sqlite");
  for (const layout of layouts()) precompute(directory, db, layout.name, layout.spec, layout.extents);
  server = await startServer(db, { directory, token: TOKEN });
  storePath = db;
});

after(async () => {
  await server?.stop();
  if (directory) removeDirectory(directory);
});

function manifestURL(name, extent) {
  return `${server.url}/v1/feeds/${encodeURIComponent(name)}/layouts/${extent}/tiles`;
}

async function serverVisible(name, extent, rect, { direction = "ltr", offsets = {} } = {}) {
  const query = new URLSearchParams({ rect: `${rect.x},${rect.y},${rect.width},${rect.height}` });
  if (direction === "rtl") query.append("direction", "rtl");
  for (const [section, offset] of Object.entries(offsets)) query.append("offset", `${section}:${offset}`);
  const response = await fetch(`${server.url}/v1/feeds/${encodeURIComponent(name)}/layouts/${extent}/visible?${query}`);
  assert.equal(response.status, 200, await response.clone().text());
  return response.json();
}

// The client's answer as the server's JSON reads back.
function asJSON(answer) {
  return JSON.parse(JSON.stringify(answer));
}

/**
 * A random viewport of the layout of `manifest` (some of them empty, some
 * touching one of `frames`), direction and carousel offsets.
 */
function randomQuery(next, manifest, frames) {
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

test(`TileClient.visible equals /visible for ${VIEWPORTS} random viewports`, async () => {
  const seed = Number(process.env.TESSERA_JS_SEED ?? 20261128);
  const next = random(seed);
  const cases = [];
  for (const layout of layouts()) {
    for (let i = 1; i < layout.extents.length; i += 2) {
      const extent = layout.extents[i];
      cases.push({
        name: layout.name,
        extent,
        frames: [],
        // Column tiles with the default cache; JSON tiles with a cache too small to keep any but the last.
        clients: [
          await TileClient.open(manifestURL(layout.name, extent)),
          await TileClient.open(manifestURL(layout.name, extent), { columns: false, cacheBytes: 1 }),
        ],
      });
    }
  }
  let compared = 0;
  let withOrthogonal = 0;
  let pinnedSeen = 0;
  for (let n = 0; n < VIEWPORTS; n++) {
    const current = cases[n % cases.length];
    const { rect, direction, offsets } = randomQuery(next, current.clients[0].manifest, current.frames);
    const expected = await serverVisible(current.name, current.extent, rect, { direction, offsets });
    for (const client of current.clients) {
      const answer = asJSON(await client.visible(rect, { direction, offsets }));
      assert.deepStrictEqual(
        answer,
        expected,
        `seed ${seed}, viewport ${n}: ${current.name} at ${current.extent}, rect ${JSON.stringify(rect)}, ${direction}, offsets ${JSON.stringify(offsets)}`,
      );
    }
    if (direction === "ltr") current.frames = expected.elements.map((element) => element.frame);
    compared += 1;
    if (expected.orthogonal) withOrthogonal += 1;
    if (expected.elements.some((element) => element.zIndex === 2)) pinnedSeen += 1;
  }
  assert.equal(compared, VIEWPORTS);
  // The random viewports must reach what is hard to get right.
  assert.ok(withOrthogonal > 50, `only ${withOrthogonal} answers with carousels`);
  assert.ok(pinnedSeen > 50, `only ${pinnedSeen} answers with pinned headers or footers`);
  const [columns, objects] = [0, 1].map((i) => cases.reduce((sum, c) => sum + c.clients[i].stats.tilesFetched, 0));
  assert.ok(columns > 0 && objects > columns, `tiles fetched: ${columns} with the cache, ${objects} without`);
  assert.ok(cases.some((c) => c.clients[0].manifest.tileCount >= 10), "no layout with 10 tiles or more");
});

test("TileClient follows a new revision after items are appended", async () => {
  const name = "home";
  const extent = "390";
  const client = await TileClient.open(manifestURL(name, extent), { prefetch: false });
  const first = client.manifest;
  assert.ok(first.etag, "the manifest has an ETag");
  assert.equal(first.tileCount, 2);

  const top = { x: 0, y: 0, width: 390, height: 844 };
  assert.deepStrictEqual(asJSON(await client.visible(top)), await serverVisible(name, extent, top));
  assert.equal(client.stats.tilesFetched, 1);

  // The manifest is revalidated, not read again, while nothing changed.
  await client.refresh();
  assert.equal(client.stats.manifestsNotModified, 1);

  const append = async (count) => {
    const body = Array.from({ length: count }, () => "{}").join("\n") + "\n";
    const response = await fetch(`${server.url}/v1/feeds/${name}/sections/3/items`, {
      method: "POST",
      headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/x-ndjson" },
      body,
    });
    assert.equal(response.status, 200, await response.text());
  };

  // Tile 1 of the old revision answers 404: the client reads the manifest again and answers from the new one.
  await append(40);
  const lower = { x: 0, y: 2300, width: 390, height: 844 };
  const answer = asJSON(await client.visible(lower));
  assert.notEqual(client.manifest.revision, first.revision);
  assert.deepStrictEqual(answer, await serverVisible(name, extent, lower));
  assert.ok(answer.elements.some((element) => element.section === 3 && element.item >= 12), "the appended items are visible");
  assert.ok(client.cache.tiles >= 1);

  // A static host never answers 404 for an old tile: refresh() follows the revision.
  const second = client.manifest.revision;
  await client.visible(top);
  await append(25);
  const refreshed = await client.refresh();
  assert.notEqual(refreshed.revision, second);
  for (const rect of [top, lower, { x: 0, y: 4200, width: 390, height: 844 }]) {
    for (const direction of ["ltr", "rtl"]) {
      assert.deepStrictEqual(asJSON(await client.visible(rect, { direction })), await serverVisible(name, extent, rect, { direction }));
    }
  }
});

test("TileClient refuses what it cannot answer", async () => {
  await assert.rejects(TileClient.open(manifestURL("no-such-feed", "390")), (error) => error.status === 404);
  const client = await TileClient.open(manifestURL("long-home", "390"), { maxTiles: 2 });
  const tall = { x: 0, y: 0, width: 390, height: 3 * client.manifest.tileLength };
  await assert.rejects(client.visible(tall), /needs 3 tiles, more than maxTiles \(2\)/);
  assert.equal(client.stats.tilesFetched, 0);
  await assert.rejects(client.visible({ x: 0, y: 0, width: -1, height: 10 }), TypeError);
  await assert.rejects(client.visible({ x: 0, y: 0, width: 1, height: 10 }, { offsets: { 1: Number.NaN } }), TypeError);
  await assert.rejects(client.visible({ x: 0, y: 0, width: 1, height: 10 }, { direction: "up" }), TypeError);
});

test("TileClient prefetches the next tile in the scroll direction", async () => {
  const client = await TileClient.open(manifestURL("long-home", "390"));
  assert.ok(client.manifest.tileCount >= 4);
  const length = client.manifest.tileLength;
  await client.visible({ x: 0, y: length + 100, width: 390, height: 844 });
  await client.waitForPrefetch();
  assert.equal(client.stats.tilesFetched, 2, "tile 1, then tile 2 prefetched");
  await client.visible({ x: 0, y: 2 * length + 100, width: 390, height: 844 });
  assert.equal(client.stats.tilesFetched, 2);
  assert.equal(client.stats.cacheHits, 1);
  await client.waitForPrefetch();
  // Scrolling back prefetches the tile before.
  await client.visible({ x: 0, y: length + 50, width: 390, height: 844 });
  await client.waitForPrefetch();
  assert.equal(client.stats.tilesFetched, 4, "tile 3 going down, tile 0 going up");
});

test("TileClient reads a static export (tessera export --tiles) as the server's tiles", async () => {
  const exported = path.join(directory, "export");
  execFileSync(cliPath, ["export", "--db", storePath, "--name", "long-carousels", "--width", "390", "--tiles", exported], { stdio: "ignore" });
  // A static host: files at the paths, nothing else.
  const host = createServer((request, response) => {
    const file = path.join(exported, decodeURIComponent(new URL(request.url, "http://host").pathname));
    if (!file.startsWith(exported) || !statSync(file, { throwIfNoEntry: false })?.isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "Content-Type": "application/json" });
    createReadStream(file).pipe(response);
  });
  await new Promise((resolve) => host.listen(0, "127.0.0.1", resolve));
  try {
    const client = await TileClient.open(`http://127.0.0.1:${host.address().port}/v1/feeds/long-carousels/layouts/390/tiles`);
    assert.equal(client.manifest.revision, (await TileClient.open(manifestURL("long-carousels", "390"))).manifest.revision);
    const next = random(7);
    let frames = [];
    for (let n = 0; n < 100; n++) {
      const { rect, direction, offsets } = randomQuery(next, client.manifest, frames);
      const expected = await serverVisible("long-carousels", "390", rect, { direction, offsets });
      assert.deepStrictEqual(asJSON(await client.visible(rect, { direction, offsets })), expected, `export, viewport ${n}`);
      frames = expected.elements.map((element) => element.frame);
    }
    assert.ok(client.stats.tilesFetched > 1);
  } finally {
    await new Promise((resolve) => host.close(resolve));
  }
});
