// `npm run bench`: the frontend's figures, written to artifacts/frontend-bench.txt.
//  1. first-load size: the JS and CSS that frontend/dist/index.html loads, gzipped;
//  2. Ctrl+Enter to table painted, p50 over 20 runs of a trivial Go block,
//     measured in the browser with performance.now() (keydown to the frame
//     after the result rendered), against the real bin/strata;
//  2b. pipeline page load to every cell's editor drawn;
//  3. the 100,000-partition grid: time to first paint and frame times while
//     scrolling it end to end (/dev/grid-bench).
// Needs `make build` first (the binary embeds the built UI).

import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { cell, launchBrowser, ROOT, signedInPage, startServer } from "./harness.mjs";

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
  await browser.close();
  await server.stop();
}
mkdirSync(join(ROOT, "artifacts"), { recursive: true });
writeFileSync(join(ROOT, "artifacts/frontend-bench.txt"), lines.join("\n") + "\n");
console.log("\nreport: artifacts/frontend-bench.txt");
