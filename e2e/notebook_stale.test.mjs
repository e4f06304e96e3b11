// Journey: staleness you can see and Run with upstream. Each cell says
// whether its stored output and its session draft are current or stale and
// why; Run with upstream runs the stale cells above first, in DAG order,
// and stops at the first failure; a block under a dynamic parent picks the
// item it runs as; a long cell keeps its controls in view.

import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { cell, eventually, insertLineAfter, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page;
const stored = (block) => cell(page, block).locator('[data-testid="stored-state"]');
const draft = (block) => cell(page, block).locator('[data-testid="draft-state"]');
const attr = async (loc, name) => ((await loc.count()) ? loc.getAttribute(name) : null);

before(async () => {
  server = await startServer("stale");
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/pipelines/clv?partition=2024-01-03");
  await cell(page, "raw_orders").locator(".cm-content").waitFor();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test("each cell shows its stored output as missing, current, or stale because a variable changed", async () => {
  await eventually(async () => (await attr(stored("clv"), "data-state")) === "missing", 15_000, "clv: stored missing");
  await page.getByRole("button", { name: /Run pipeline for 2024-01-03/ }).click();
  await eventually(async () => (await page.locator('[data-testid="dag"] g.node.succeeded').count()) === 7, 60_000, "all 7 DAG nodes to turn green");
  for (const b of ["raw_orders", "daily_customer_metrics", "clv", "segments"]) {
    await eventually(async () => (await attr(stored(b), "data-state")) === "current", 15_000, `${b}: stored current`);
  }
  assert.match(await stored("clv").innerText(), /stored 2024-01-03: current v1/);
  // The margin variable changes on disk (another editor): clv reads it, the cells below read clv.
  const file = join(server.project, "pipelines/clv.yaml");
  writeFileSync(file, readFileSync(file, "utf8").replace('margin: "0.32"', 'margin: "0.5"'));
  await eventually(async () => (await attr(stored("clv"), "data-cause")) === "variable", 20_000, "clv: stale because of a variable");
  assert.match(await stored("clv").innerText(), /stale v1 — variable margin "0.32" → "0.5" changed/);
  assert.equal(await attr(stored("segments"), "data-cause"), "upstream_stale");
  assert.match(await stored("segments").innerText(), /upstream clv is stale/);
  // raw_orders reads no variable: still current.
  assert.equal(await attr(stored("raw_orders"), "data-state"), "current");
  await screenshot(page, "stale-variable");
});

test("Run with upstream runs the stale cells above first, in DAG order, in this session", async () => {
  // An unsaved edit of raw_orders, run: a draft; the published metrics below no longer match it.
  await insertLineAfter(page, "raw_orders", "seconds := int64(", "customers = 40");
  await page.keyboard.press("Control+Enter");
  await cell(page, "raw_orders").locator('[data-testid="preview-table"]').waitFor({ timeout: 30_000 });
  await eventually(async () => (await attr(draft("raw_orders"), "data-state")) === "current", 15_000, "raw_orders: draft current");
  await cell(page, "daily_customer_metrics").locator('[data-testid="session-state"]').waitFor({ timeout: 10_000 });
  // Run with upstream on clv: the metrics (fed by the draft), then clv; raw_orders is fresh and is not rerun.
  await cell(page, "clv").locator('[data-testid="run-upstream"]').click();
  const prog = cell(page, "clv").locator('[data-testid="upstream-progress"]');
  await eventually(async () => (await prog.getAttribute("data-finished")) === "true", 60_000, "the run with upstream to finish");
  const steps = await prog.locator('[data-testid="upstream-step"]').evaluateAll((els) => els.map((e) => `${e.dataset.block}:${e.dataset.state}`));
  assert.deepEqual(steps, ["daily_customer_metrics:done", "clv:done"]);
  assert.match(await cell(page, "clv").locator('[data-testid="input-daily_customer_metrics"]').innerText(), /your draft/);
  assert.match(await cell(page, "daily_customer_metrics").locator('[data-testid="input-raw_orders"]').innerText(), /your draft/);
  await eventually(async () => (await attr(draft("clv"), "data-state")) === "current", 15_000, "clv: draft current");
  // Running raw_orders again makes the drafts below older than their upstream's.
  await cell(page, "raw_orders").locator('[data-testid="run"]').click();
  await eventually(async () => (await attr(draft("daily_customer_metrics"), "data-cause")) === "upstream", 30_000, "metrics draft older than raw_orders's");
  assert.match(await draft("daily_customer_metrics").innerText(), /older — raw_orders has a newer draft/);
  assert.equal(await attr(draft("clv"), "data-cause"), "upstream_stale");
  await screenshot(page, "stale-run-with-upstream");
});

test("Run with upstream stops at the first failure and marks the failing cell", async () => {
  // Break the metrics SQL (unsaved): its draft is now older than its code.
  const m = cell(page, "daily_customer_metrics");
  await m.locator(".cm-line", { hasText: "GROUP BY customer_id" }).click();
  await page.keyboard.press("End");
  await page.keyboard.insertText(" HAVING no_such_column > 0");
  await eventually(async () => (await attr(draft("daily_customer_metrics"), "data-cause")) === "code", 15_000, "metrics draft older than its code");
  await cell(page, "segments").locator('[data-testid="run-upstream"]').click();
  const prog = cell(page, "segments").locator('[data-testid="upstream-progress"]');
  await eventually(async () => (await prog.getAttribute("data-finished")) === "true", 60_000, "the run with upstream to stop");
  const steps = await prog.locator('[data-testid="upstream-step"]').evaluateAll((els) => els.map((e) => `${e.dataset.block}:${e.dataset.state}`));
  assert.deepEqual(steps, ["daily_customer_metrics:failed", "clv:skipped", "segments:skipped"]);
  assert.match(await prog.innerText(), /stopped: daily_customer_metrics failed/);
  await m.locator('[data-testid="upstream-failed"]').waitFor();
  assert.match(await m.locator('[data-testid="run-error"]').innerText(), /no_such_column/);
  await screenshot(page, "stale-upstream-failure");
  // Put the SQL back (Revert to saved) for the next journey.
  await m.locator("details.menu summary").click();
  await m.getByRole("button", { name: "Revert to saved" }).click();
});

test("a block under the dynamic parent runs as the item chosen", async () => {
  const ss = cell(page, "segment_stats");
  await ss.locator('[data-testid="run-upstream"]').click();
  const prog = ss.locator('[data-testid="upstream-progress"]');
  await eventually(async () => (await prog.getAttribute("data-finished")) === "true", 90_000, "segment_stats with its upstream");
  assert.doesNotMatch(await prog.innerText(), /✗/);
  const chooser = ss.locator('[data-testid="item-chooser"]');
  await eventually(async () => (await chooser.locator("option").count()) >= 2, 15_000, "the item chooser to list the segments");
  const keys = await chooser.locator("option").evaluateAll((os) => os.map((o) => o.value));
  const pick = keys[keys.length - 1];
  await chooser.selectOption(pick);
  await ss.locator('[data-testid="run"]').click();
  await eventually(async () => (await ss.locator('[data-testid="run-item"]').count()) === 1 && (await ss.locator('[data-testid="run-item"]').innerText()) === pick, 30_000, `segment_stats as ${pick}`);
  const first = await ss.locator('[data-testid="preview-table"] tbody tr').first().locator("td").first().innerText();
  assert.equal(first, pick, "the child's output is the chosen segment's");
  await eventually(async () => (await draft("segment_stats").innerText()).includes(`(item ${pick})`), 10_000, "the draft names its item");
});

test("a long cell keeps its controls in view while it scrolls", async () => {
  const c = cell(page, "raw_orders");
  await c.locator(".cm-line", { hasText: "customers = 40" }).click();
  await page.keyboard.press("End");
  await page.keyboard.insertText("\n" + Array.from({ length: 120 }, (_, i) => `\t// line ${i}`).join("\n"));
  // The editor at its full height and a table below it: taller than the window.
  await page.setViewportSize({ width: 1400, height: 700 });
  await page.keyboard.press("Control+Enter");
  await c.locator('[data-testid="run-status"][data-phase="done"]').waitFor({ timeout: 30_000 });
  // Scroll into the middle of the cell.
  await c.evaluate((el) => scrollTo(0, scrollY + el.getBoundingClientRect().top + 350));
  const run = c.locator('[data-testid="run"]');
  const onTop = (loc) =>
    loc.evaluate((el) => {
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return r.top >= 0 && r.bottom <= innerHeight && (hit === el || el.contains(hit));
    });
  const cellTop = await c.evaluate((el) => el.getBoundingClientRect().top);
  assert.ok(cellTop < 0, `the cell's top scrolled away (${cellTop})`);
  assert.ok(await onTop(run), "the cell's Run button is visible and on top");
  assert.ok(await onTop(c.locator('[data-testid="run-upstream"]')), "Run with upstream is visible");
  assert.ok(await onTop(page.locator('[data-testid="restart-kernel"]')), "Restart kernel is visible");
  assert.ok(await onTop(page.locator('[data-testid="partition-input"]')), "the partition picker is visible");
  // Playwright clicks only an element that receives the pointer at that point.
  await run.click({ timeout: 5_000 });
  await c.locator('[data-testid="run-status"][data-phase="done"]').waitFor({ timeout: 30_000 });
  await screenshot(page, "stale-sticky-controls");
});
