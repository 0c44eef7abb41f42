"""The viewer's figures in a real browser (Scripts/viewer-figures.sh): frame
times while it scrolls at a steady speed, against the browser's own frame
cadence measured in the same run (an empty requestAnimationFrame loop), and
its JavaScript heap over the run (CDP Performance.getMetrics after a
garbage collection, sampled every few seconds)."""

import argparse
import json
import statistics
import sys
import time
import urllib.parse

sys.dont_write_bytecode = True  # nothing written into the repository
import viewer_page  # noqa: E402
from playwright.sync_api import sync_playwright

# The browser's own cadence: rAF intervals of a loop that does nothing else.
IDLE_LOOP = """(seconds) => new Promise((resolve) => {
  const deltas = [];
  let last = null;
  const end = performance.now() + seconds * 1000;
  const step = (now) => {
    if (last !== null) deltas.push(now - last);
    last = now;
    if (now < end) requestAnimationFrame(step); else resolve(deltas);
  };
  requestAnimationFrame(step);
})"""


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def heap(cdp):
    cdp.send("HeapProfiler.collectGarbage")
    metrics = {entry["name"]: entry["value"] for entry in cdp.send("Performance.getMetrics")["metrics"]}
    return metrics["JSHeapUsedSize"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--chromium", required=True)
    parser.add_argument("--name", default="demo-feed")
    parser.add_argument("--width", type=int, default=390)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--speed", type=float, default=3000)
    parser.add_argument("--sample-every", type=float, default=5)
    parser.add_argument("--cache", type=int, help="the viewer's tile cache budget in bytes (its ?cache=)")
    args = parser.parse_args()
    with sync_playwright() as playwright:
        browser = viewer_page.launch(playwright, args.chromium)
        cache = f"&cache={args.cache}" if args.cache else ""
        page = viewer_page.Page(browser, f"{args.url}?feed={urllib.parse.quote(args.name)}&width={args.width}{cache}")
        cdp = page.context.new_cdp_session(page.page)
        cdp.send("Performance.enable")
        idle = page.page.evaluate(IDLE_LOOP, 10)
        samples = [(0.0, heap(cdp))]
        page.page.evaluate("window.tesseraViewer.takeTimes()")
        start_scroll = page.state()["scroll"]
        started = time.monotonic()
        page.page.evaluate(f"window.tesseraViewer.autoscroll({args.speed})")
        frames, work = [], []
        while time.monotonic() - started < args.seconds:
            time.sleep(min(args.sample_every, args.seconds - (time.monotonic() - started)))
            times = page.page.evaluate("window.tesseraViewer.takeTimes()")
            frames += times["frames"]
            work += times["work"]
            samples.append((time.monotonic() - started, heap(cdp)))
        page.page.evaluate("window.tesseraViewer.autoscroll(0)")
        times = page.page.evaluate("window.tesseraViewer.takeTimes()")
        frames += times["frames"]
        work += times["work"]
        state = page.state()
        errors = page.errors + state["errors"]
        browser.close()
    result = {
        "seconds": round(samples[-1][0], 1),
        "speed": args.speed,
        "scrolled": round(state["scroll"] - start_scroll),
        "frames": len(frames),
        "frame_p50_ms": round(statistics.median(frames), 2),
        "frame_p95_ms": round(percentile(frames, 0.95), 2),
        "frame_p99_ms": round(percentile(frames, 0.99), 2),
        "frames_over_25ms": sum(1 for delta in frames if delta > 25),
        "idle_frame_p50_ms": round(statistics.median(idle), 2),
        "idle_frame_p95_ms": round(percentile(idle, 0.95), 2),
        "p95_ratio_to_idle": round(percentile(frames, 0.95) / percentile(idle, 0.95), 3),
        "work_p50_ms": round(statistics.median(work), 2),
        "work_p95_ms": round(percentile(work, 0.95), 2),
        "heap_first_mib": round(samples[1][1] / 2**20, 2) if len(samples) > 1 else None,
        "heap_last_mib": round(samples[-1][1] / 2**20, 2),
        "heap_before_mib": round(samples[0][1] / 2**20, 2),
        "heap_max_mib": round(max(value for _, value in samples) / 2**20, 2),
        "heap_last_to_first": round(samples[-1][1] / samples[1][1], 3) if len(samples) > 1 else None,
        "tiles_fetched": state["stats"]["tilesFetched"],
        "bytes_fetched": state["stats"]["bytesFetched"],
        "cache": state["cache"],
        "errors": errors,
    }
    print(json.dumps(result, indent=1))
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
