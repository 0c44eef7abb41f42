// The browser benchmark's side in the page (browser-bench.py drives it):
// TileClient timed in the browser it runs in, and the URLs a scroll fetches.
import { TileClient } from "../tessera-tiles.mjs";

function median(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * µs per visible() answered from cached tiles: the median over `batches` of
 * the mean of `perBatch` calls (a browser's clock is too coarse for one
 * call). Viewports stay within 4 tiles the client has read; a fetch during
 * the timing is an error.
 */
export async function cachedViewports(manifestURL, { width, height, batches = 101, perBatch = 200 }) {
  const client = await TileClient.open(manifestURL, { prefetch: false });
  const { tileLength, contentSize } = client.manifest;
  const start = Math.min(contentSize[1] / 2, Math.max(0, contentSize[1] - 5 * tileLength));
  const span = 4 * tileLength - height;
  for (let y = start; y <= start + span; y += height / 2) await client.visible({ x: 0, y, width, height });
  const fetched = client.stats.tilesFetched;
  const means = [];
  let elements = 0;
  let call = 0;
  for (let batch = 0; batch < batches; batch++) {
    const began = performance.now();
    for (let i = 0; i < perBatch; i++, call++) {
      elements += (await client.visible({ x: 0, y: start + span * ((call * 0.618034) % 1), width, height })).elements.length;
    }
    means.push(((performance.now() - began) * 1000) / perBatch);
  }
  if (client.stats.tilesFetched !== fetched) throw new Error("a timed viewport fetched a tile");
  return { p50: median(means), elementsPerViewport: elements / call, tilesCached: fetched };
}

/**
 * ms from opening a new client to its first viewport's answer (the manifest
 * and the tiles it needs, fetched past the browser's cache): median of `runs`.
 */
export async function firstViewport(manifestURL, { width, height, runs = 30 }) {
  const noStore = (url, init) => fetch(url, { ...init, cache: "no-store" });
  const times = [];
  let tiles = 0;
  for (let run = 0; run < runs; run++) {
    const began = performance.now();
    const client = await TileClient.open(manifestURL, { prefetch: false, fetch: noStore });
    await client.visible({ x: 0, y: 0, width, height });
    times.push(performance.now() - began);
    tiles += client.stats.tilesFetched;
  }
  return { p50: median(times), tilesPerRun: tiles / runs };
}

/**
 * Viewport i at (0, start + i·height), `pages` of them, each after the
 * prefetch of the one before: the URLs fetched, in order, and the bytes the
 * client counted (Content-Length: on the wire).
 */
export async function scroll(manifestURL, { width, height, start = 0, pages }) {
  const urls = [];
  const recording = (url, init) => {
    urls.push(String(url));
    return fetch(url, { ...init, cache: "no-store" });
  };
  const client = await TileClient.open(manifestURL, { fetch: recording });
  let elements = 0;
  for (let page = 0; page < pages; page++) {
    elements += (await client.visible({ x: 0, y: start + page * height, width, height })).elements.length;
    await client.waitForPrefetch();
  }
  return { urls, bytesFetched: client.stats.bytesFetched, tilesFetched: client.stats.tilesFetched, elements };
}
