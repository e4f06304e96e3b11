// `npm run bench`: the frontend's figures, written to artifacts/frontend-bench.txt.
//  1. first-load size: the JS and CSS that frontend/dist/index.html loads, gzipped;
//  2. Ctrl+Enter to table painted, p50 over 20 runs of a trivial Go block,
//     measured in the browser with performance.now() (keydown to the frame
//     after the result rendered), against the real bin/strata;
//  2b. pipeline page load to every cell's editor drawn;
//  3. the 100,000-partition grid: time to first paint and frame times while
//     scrolling it end to end (/dev/grid-bench);
//  4. the grid at 3.65 million cells (issue 27): a real project warehouse
//     with a day × region (20) × customer (500, dynamic) backfill and a
//     365-day one beside it, built by TestBuildGridWarehouse (catalog rows
//     written with SQL, ~30 s; STRATA_BENCH_GRID=0 skips it). The partitions
//     API server-side (BenchmarkGridPartitions) and over HTTP, the server's
//     memory, and in Chromium the backfill page's grid first paint and
//     scrolling frames, each against the 365-day backfill in the same run.
// Needs `make build` first (the binary embeds the built UI) and Go (4.).

import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { cell, launchBrowser, ROOT, signedInPage, startServer, TOKEN } from "./harness.mjs";

const lines = [];
const out = (s = "") => {
  lines.push(s);
  console.log(s);
};
const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const ms = (v) => `${v.toFixed(1)} ms`;

// 1. Bundle.
const dist = join(ROOT, "frontend/dist");
const html = readFileSync(join(dist, "index.html"), "utf8");
const assets = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
let raw = 0,
  gz = 0;
out(`Strata frontend benchmark, ${new Date().toISOString()}`);
out();
out("First load (what index.html loads; lazy chunks excluded):");
for (const a of assets) {
  const b = readFileSync(join(dist, a));
  const g = gzipSync(b, { level: 9 }).length;
  raw += b.length;
  gz += g;
  out(`  ${a.padEnd(40)} ${(b.length / 1024).toFixed(1).padStart(7)} KB  gzip ${(g / 1024).toFixed(1).padStart(6)} KB`);
}
out(`  total JS+CSS                              ${(raw / 1024).toFixed(1).padStart(7)} KB  gzip ${(gz / 1024).toFixed(1).padStart(6)} KB (budget 400 KB)`);
out();

const server = await startServer("bench");
const browser = await launchBrowser();
try {
  // 2. Ctrl+Enter to table painted.
  await server.api("POST", "/pipelines/clv/blocks", { id: "trivial", kind: "go" });
  const page = await signedInPage(browser, server, "/pipelines/clv?partition=2024-01-03");
  const c = cell(page, "trivial");
  await c.locator(".cm-content").waitFor();
  await c.evaluate((el) => {
    window.__lat = [];
    let t0 = 0;
    addEventListener("keydown", (e) => {
      if (e.key === "Enter" && e.ctrlKey) t0 = performance.now();
    }, true);
    new MutationObserver(() => {
      const st = el.querySelector('[data-testid="run-status"]');
      if (t0 && st?.getAttribute("data-phase") === "done" && el.querySelector('[data-testid="preview-table"]')) {
        const start = t0;
        t0 = 0;
        requestAnimationFrame(() => window.__lat.push(performance.now() - start));
      }
    }).observe(el, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-phase"] });
  });
  await c.locator(".cm-content").click();
  const runs = 22; // the first two warm the kernel and are dropped
  for (let i = 1; i <= runs; i++) {
    await page.keyboard.press("Control+Enter");
    await page.waitForFunction((n) => window.__lat.length >= n, i, { timeout: 30_000 });
    await page.waitForTimeout(50);
  }
  const lat = (await page.evaluate(() => window.__lat)).slice(2);
  out(`Ctrl+Enter to table painted, trivial Go block, ${lat.length} runs (real bin/strata, headless Chromium):`);
  out(`  p50 ${ms(pct(lat, 50))}   p90 ${ms(pct(lat, 90))}   min ${ms(Math.min(...lat))}   max ${ms(Math.max(...lat))}`);
  out();

  // 2b. Pipeline page load: navigation start to every cell's editor drawn
  // (the pipeline, each block's source and the last run fetched), warm cache.
  const loads = [];
  for (let i = 0; i < 6; i++) {
    await page.goto(server.base + "/pipelines/clv?partition=2024-01-03");
    await page.waitForFunction(() => document.querySelectorAll("section.cell .cm-content").length >= 8, null, { timeout: 30_000 });
    loads.push(await page.evaluate(() => performance.now()));
  }
  const warm = loads.slice(1);
  out(`Pipeline page load to all 8 cell editors drawn, ${warm.length} loads (after one warm-up):`);
  out(`  p50 ${ms(pct(warm, 50))}   max ${ms(Math.max(...warm))}   first ${ms(loads[0])}`);
  out();

  // 3. The 100k grid.
  const g = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await g.goto(server.url);
  await g.goto(server.base + "/dev/grid-bench?n=100000");
  await g.waitForFunction(() => window.__gridBench?.done, null, { timeout: 60_000 });
  const r = await g.evaluate(() => window.__gridBench);
  const frames = r.frames.slice(1);
  out(`Partition grid, ${r.n.toLocaleString("en-US")} partitions on a canvas:`);
  out(`  first paint ${ms(r.firstPaintMs)} (data generated, laid out and drawn)`);
  out(`  scrolling end to end, ${frames.length} frames: p50 ${ms(pct(frames, 50))}   p95 ${ms(pct(frames, 95))}   max ${ms(Math.max(...frames))}`);
  out(`  canvas draw per frame: p50 ${ms(pct(r.draws, 50))}   max ${ms(Math.max(...r.draws))}`);
  out(`  (headless Chromium without a GPU on ${process.env.BENCH_MACHINE ?? "this machine"}; frame times include the 60 Hz frame pacing)`);
} finally {
  await server.stop();
}

// 4. The grid at 3.65 million cells.
if (process.env.STRATA_BENCH_GRID !== "0") {
  try {
    await gridAtScale();
  } catch (e) {
    out(`Grid at 3.65 million cells: failed: ${e.message}`);
    process.exitCode = 1;
  }
}
await browser.close();

async function gridAtScale() {
  const work = mkdtempSync(join(tmpdir(), "strata-grid-"));
  const project = join(work, "grid");
  const goEnv = { ...process.env, STRATA_GRID_WAREHOUSE: project };
  const go = (args) => {
    const r = spawnSync("go", args, { cwd: ROOT, env: goEnv, encoding: "utf8", maxBuffer: 64 << 20 });
    if (r.status !== 0) throw new Error(`go ${args.join(" ")}: exit ${r.status}\n${r.stdout}\n${r.stderr}`);
    return r.stdout;
  };
  try {
    let t0 = performance.now();
    go(["test", "-count=1", "-timeout", "30m", "-run", "^TestBuildGridWarehouse$", "./projects/engine"]);
    const ids = JSON.parse(readFileSync(join(project, "grid-bench.json"), "utf8"));
    out();
    out(`Grid at ${ids.cell_count.toLocaleString("en-US")} cells (365 days x 20 regions x 500 customers), against ${ids.day_count} one-dimensional days, one run:`);
    out(`  warehouse built in ${((performance.now() - t0) / 1000).toFixed(1)} s (TestBuildGridWarehouse, not part of make test)`);
    // Server-side: the engine calls the routes make, before the server holds the file.
    const bench = go(["test", "-count=1", "-run", "^$", "-bench", "^BenchmarkGridPartitions$", "-benchtime", "1x", "./projects/engine"]);
    const line = bench.split("\n").find((l) => l.startsWith("BenchmarkGridPartitions")) ?? "";
    const metric = (name) => Number((line.match(new RegExp(`([0-9.]+) ${name}\\b`)) ?? [])[1]);
    const reads = ["status-first", "status", "first-page", "deep-page", "filtered-page", "failed-page"];
    out("  server-side (engine calls, BenchmarkGridPartitions): read, ms at 3.65 M cells, x the 365-day read");
    for (const r of reads) out(`    ${r.padEnd(14)} ${metric(r + "-ms").toFixed(1).padStart(9)} ms   x${metric(r + "-ratio").toFixed(1)}`);

    const gs = await startServer("grid", [], { project });
    try {
      const rss = () => {
        const st = readFileSync(`/proc/${gs.pid()}/status`, "utf8");
        const kb = (k) => Number((st.match(new RegExp(`${k}:\\s+(\\d+)`)) ?? [])[1]) / 1024;
        return { rss: kb("VmRSS"), peak: kb("VmHWM") };
      };
      const startRss = rss();
      // Over HTTP: p50 of 7 after one warm-up, both backfills.
      const http = async (path) => {
        const times = [];
        let bytes = 0;
        for (let i = 0; i < 8; i++) {
          const t = performance.now();
          const r = await fetch(gs.base + "/api/v1" + path, { headers: { Authorization: `Bearer ${TOKEN}` } });
          const body = await r.arrayBuffer();
          if (!r.ok) throw new Error(`GET ${path}: ${r.status} ${Buffer.from(body).toString()}`);
          bytes = body.byteLength;
          if (i > 0) times.push(performance.now() - t);
        }
        return { p50: pct(times, 50), max: Math.max(...times), bytes };
      };
      const paths = (id, deep) => ({
        status: `/backfills/${id}`,
        "first-page": `/backfills/${id}/partitions?offset=0&limit=20000`,
        "deep-page": `/backfills/${id}/partitions?offset=${deep}&limit=20000`,
        "filtered-page": `/backfills/${id}/partitions?offset=0&limit=20000&where=region%3Dr03&where=customer%3Dc007`,
        "failed-page": `/backfills/${id}/partitions?state=failed&limit=100`,
      });
      const cellPaths = paths(ids.cells, 3_000_000);
      const dayPaths = paths(ids.days, 300);
      dayPaths["filtered-page"] = dayPaths["first-page"];
      out("  over HTTP (real bin/strata, p50 of 7 after a warm-up): read, p50 at 3.65 M cells, x the 365-day read, response size");
      for (const k of Object.keys(cellPaths)) {
        const c = await http(cellPaths[k]);
        const d = await http(dayPaths[k]);
        out(`    ${k.padEnd(14)} ${ms(c.p50).padStart(10)}   x${(c.p50 / d.p50).toFixed(1).padEnd(6)} max ${ms(c.max)}   ${(c.bytes / 1024).toFixed(0)} KB`);
      }

      // The backfill page: navigation start to the grid drawn with its
      // first page, five loads each (the first one cold), alternating.
      const page = await signedInPage(browser, gs, "/");
      const paint = async (id) => {
        await page.goto(`${gs.base}/backfills/${id}`);
        await page.locator('[data-testid="partition-grid"][data-painted="1"]').waitFor({ timeout: 120_000 });
        return page.evaluate(() => performance.now());
      };
      const firsts = { cells: [], days: [] };
      for (let i = 0; i < 5; i++) {
        firsts.days.push(await paint(ids.days));
        firsts.cells.push(await paint(ids.cells));
      }
      const warmC = firsts.cells.slice(1),
        warmD = firsts.days.slice(1);
      out("  backfill page, navigation to the grid drawn (headless Chromium), 4 loads after a first:");
      out(`    3.65 M cells: p50 ${ms(pct(warmC, 50))}   max ${ms(Math.max(...warmC))}   first ${ms(firsts.cells[0])}`);
      out(`    365 days:     p50 ${ms(pct(warmD, 50))}   max ${ms(Math.max(...warmD))}   first ${ms(firsts.days[0])}   ratio x${(pct(warmC, 50) / pct(warmD, 50)).toFixed(2)}`);

      // Scrolling the 3.65 M-cell grid end to end over 200 frames (pages
      // are read as they come into view).
      const scroll = await page.evaluate(
        () =>
          new Promise((done) => {
            const el = document.querySelector('[data-testid="partition-grid"]');
            const max = el.scrollHeight - el.clientHeight;
            const frames = [];
            let i = 0,
              last = performance.now();
            const tick = () => {
              const now = performance.now();
              frames.push(now - last);
              last = now;
              el.scrollTop = (max * ++i) / 200;
              if (i <= 200) requestAnimationFrame(tick);
              else done({ frames: frames.slice(1), height: el.scrollHeight, heap: performance.memory?.usedJSHeapSize ?? 0 });
            };
            requestAnimationFrame(tick);
          }),
      );
      await page.waitForTimeout(2000); // the pages read while scrolling arrive
      const heap = await page.evaluate(() => performance.memory?.usedJSHeapSize ?? 0);
      const f = scroll.frames;
      out(`  scrolling the 3.65 M-cell grid end to end (${(scroll.height / 1000).toFixed(0)}k px), ${f.length} frames: p50 ${ms(pct(f, 50))}   p95 ${ms(pct(f, 95))}   max ${ms(Math.max(...f))}`);
      out(`  browser JS heap after scrolling ${(heap / 2 ** 20).toFixed(0)} MiB; server RSS ${startRss.rss.toFixed(0)} MiB at start, ${rss().rss.toFixed(0)} MiB after, peak ${rss().peak.toFixed(0)} MiB`);
    } finally {
      await gs.stop();
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
mkdirSync(join(ROOT, "artifacts"), { recursive: true });
writeFileSync(join(ROOT, "artifacts/frontend-bench.txt"), lines.join("\n") + "\n");
console.log("\nreport: artifacts/frontend-bench.txt");
