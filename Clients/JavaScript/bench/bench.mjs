// Node figures of the tile client on the 1M-item demo feed, served by a real
// tessera-server: a viewport answered from cached tiles, the first viewport of
// a new client, and bytes fetched per viewport while scrolling.
//
//   node Clients/JavaScript/bench/bench.mjs [--db tessera-demo.sqlite] [--name demo-feed] [--width 390] [--pages 1000]
//
// Without --db, `tessera demo` writes the demo store into a temporary folder first.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { TileClient } from "../tessera-tiles.mjs";
import { cliPath, removeDirectory, startServer, temporaryDirectory } from "../support/tessera-server.mjs";

const { values } = parseArgs({
  options: {
    db: { type: "string" },
    name: { type: "string", default: "demo-feed" },
    width: { type: "string", default: "390" },
    height: { type: "string", default: "844" },
    pages: { type: "string", default: "1000" },
    runs: { type: "string", default: "30" },
  },
});
const width = Number(values.width);
const height = Number(values.height);
const pages = Number(values.pages);
const runs = Number(values.runs);

let directory;
let db = values.db;
let name = values.name;
if (!db) {
  directory = temporaryDirectory();
  const output = execFileSync(cliPath, ["demo", "--out-dir", directory], { encoding: "utf8" });
  name = /--name (\S+)/.exec(output)?.[1] ?? name;
  db = path.join(directory, "tessera-demo.sqlite");
}

function median(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const server = await startServer(db);
try {
  const manifestURL = `${server.url}/v1/feeds/${encodeURIComponent(name)}/layouts/${width}/tiles`;
  const rows = [];
  // The server's first read of the layout is not the client's cost.
  await TileClient.open(manifestURL).then((client) => client.visible({ x: 0, y: 0, width, height }));

  for (const columns of [true, false]) {
    const format = columns ? "column tiles" : "JSON tiles";

    const first = [];
    for (let run = 0; run < runs; run++) {
      const start = performance.now();
      const client = await TileClient.open(manifestURL, { columns, prefetch: false });
      await client.visible({ x: 0, y: 0, width, height });
      first.push(performance.now() - start);
    }

    // The same with every body from memory: the client's own cost, no server or loopback.
    const bodies = new Map();
    const memoryFetch = async (url, init) => {
      if (!bodies.has(url)) {
        const response = await fetch(url, init);
        bodies.set(url, { status: response.status, headers: [...response.headers], text: await response.text() });
      }
      const { status, headers, text } = bodies.get(url);
      return new Response(text, { status, headers: headers.filter(([key]) => key !== "content-encoding") });
    };
    const fromMemory = [];
    for (let run = 0; run <= runs; run++) {
      const start = performance.now();
      const client = await TileClient.open(manifestURL, { columns, prefetch: false, fetch: memoryFetch });
      await client.visible({ x: 0, y: 0, width, height });
      if (run > 0) fromMemory.push(performance.now() - start);
    }

    const client = await TileClient.open(manifestURL, { columns, cacheBytes: 64 << 20 });
    const scrolled = { ...client.stats };
    let elements = 0;
    for (let page = 0; page < pages; page++) {
      elements += (await client.visible({ x: 0, y: page * height, width, height })).elements.length;
      await client.waitForPrefetch();
    }
    const bytes = client.stats.bytesFetched - scrolled.bytesFetched;
    const tiles = client.stats.tilesFetched - scrolled.tilesFetched;

    // Viewports within the tiles just fetched: no fetch, only the answer.
    const cached = [];
    const span = Math.min(pages * height, client.manifest.tileLength * 4) - height;
    for (let run = 0; run < 2000; run++) {
      const y = (pages - 1) * height - span * ((run * 0.618034) % 1);
      const start = performance.now();
      await client.visible({ x: 0, y: Math.max(0, y), width, height });
      cached.push(performance.now() - start);
    }
    rows.push([format, "visible() from cached tiles, p50", `${(median(cached) * 1000).toFixed(0)} µs`]);
    rows.push([format, "first viewport of a new client (manifest + tiles), p50", `${median(first).toFixed(1)} ms`]);
    rows.push([format, "the same, bodies from memory (the client's own cost), p50", `${median(fromMemory).toFixed(2)} ms`]);
    rows.push([format, `bytes fetched per ${height}-point viewport, scrolling ${pages} viewports`, `${Math.round(bytes / pages)} B`]);
    rows.push([format, "tiles fetched, elements per viewport", `${tiles}, ${(elements / pages).toFixed(1)}`]);
  }
  const manifest = (await TileClient.open(manifestURL)).manifest;
  console.log(`${name} at ${width}: ${manifest.tileCount} tiles of ${manifest.tileLength} points, content ${manifest.contentSize.join("×")}; node ${process.version}`);
  console.log("| tiles | figure | value |\n|---|---|---|");
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
} finally {
  await server.stop();
  if (directory) removeDirectory(directory);
}
