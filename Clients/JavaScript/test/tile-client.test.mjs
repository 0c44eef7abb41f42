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
import { random, randomQuery, testLayouts } from "../support/viewports.mjs";

const layouts = () => testLayouts(readExample);

const TOKEN = "js-client-test-token";
const VIEWPORTS = 500;

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
