// The browser test's side in the page: TileClients over manifests the test
// names, random viewports answered by them, an append through the server,
// and reads of other origins. browser-test.py drives it and compares.
import { TileClient } from "../tessera-tiles.mjs";
import { random, randomQuery, testLayouts } from "../support/viewports.mjs";

const EXAMPLES = ["home-feed.json", "carousel-feed.json", "horizontal-shelf.json"];

/** The tests' specs (support/viewports.mjs), the examples read from `examplesURL`. */
export async function layouts(examplesURL) {
  const examples = {};
  for (const file of EXAMPLES) {
    const response = await fetch(new URL(file, examplesURL));
    if (!response.ok) throw new Error(`${file}: ${response.status}`);
    examples[file] = await response.json();
  }
  return testLayouts((file) => structuredClone(examples[file]));
}

// The clients opened so far: per manifest URL, one on column tiles with the
// default cache, one on JSON tiles with a cache that keeps only the last tile.
const cases = [];

/** Opens the clients of `urls`; resolves to the index of the first case. */
export async function open(urls) {
  const first = cases.length;
  for (const url of urls) {
    const clients = [await TileClient.open(url), await TileClient.open(url, { columns: false, cacheBytes: 1 })];
    cases.push({ url, clients, frames: [] });
  }
  return first;
}

/**
 * `count` random viewports over cases `first`… (round robin), each answered
 * by both clients of its case: [{url, rect, direction, offsets, answers}].
 */
export async function run({ seed, count, first = 0 }) {
  const next = random(seed);
  const chosen = cases.slice(first);
  const results = [];
  for (let n = 0; n < count; n++) {
    const current = chosen[n % chosen.length];
    const { rect, direction, offsets } = randomQuery(next, current.clients[0].manifest, current.frames);
    const answers = [];
    for (const client of current.clients) answers.push(JSON.parse(JSON.stringify(await client.visible(rect, { direction, offsets }))));
    if (direction === "ltr") current.frames = answers[0].elements.map((element) => element.frame);
    results.push({ url: current.url, rect, direction, offsets, answers });
  }
  return results;
}

/** Revalidates every client's manifest; resolves to their revisions and the 304s seen. */
export async function refreshAll() {
  const revisions = [];
  for (const { clients } of cases) for (const client of clients) revisions.push((await client.refresh()).revision);
  const notModified = cases.reduce((sum, { clients }) => sum + clients.reduce((s, c) => s + c.stats.manifestsNotModified, 0), 0);
  const etags = cases.every(({ clients }) => clients.every((client) => typeof client.manifest.etag === "string" && client.manifest.etag.length > 2));
  return { revisions, notModified, etags };
}

/** POSTs `count` items to `url` with the bearer token (a preflighted request from another origin). */
export async function append(url, token, count) {
  const response = await fetch(url, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/x-ndjson" },
    body: "{}\n".repeat(count),
  });
  return { status: response.status, body: await response.text() };
}

// A client that learns of a new revision only from a tile's 404. It reads
// past the browser's cache: there an old revision's tile, immutable, still
// answers 200 (the other clients read every tile of the layout).
let follower;

/** Opens the follower (no prefetch) and answers `rect` with it. */
export async function startFollower(url, rect) {
  const noStore = (resource, init) => fetch(resource, { ...init, cache: "no-store" });
  follower = await TileClient.open(url, { prefetch: false, fetch: noStore });
  await follower.visible(rect);
  return { revision: follower.manifest.revision, tiles: follower.stats.tilesFetched };
}

/** The follower's answer to `rect`, after the layout changed. */
export async function follow(rect) {
  const answer = JSON.parse(JSON.stringify(await follower.visible(rect)));
  return { revision: follower.manifest.revision, answer };
}

/** Opens a client of `url` and answers `rect`, or says how it failed; and what a plain fetch of `url` does. */
export async function tryRead(url, rect) {
  const result = {};
  try {
    const client = await TileClient.open(url);
    result.answer = JSON.parse(JSON.stringify(await client.visible(rect)));
    result.etag = client.manifest.etag ?? null;
    await client.refresh();
    result.notModified = client.stats.manifestsNotModified;
  } catch (error) {
    result.error = `${error.name}: ${error.message}`;
  }
  try {
    const response = await fetch(url);
    result.fetchStatus = response.status;
  } catch (error) {
    result.fetchError = `${error.name}: ${error.message}`;
  }
  return result;
}
