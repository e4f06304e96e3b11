// Journey 1: a pipeline page as a notebook. Edit a Go block, run it with
// Ctrl+Enter, see stdout and the preview table; a compile error shows at its
// line; save writes the file; a reload during a run reattaches to it.

import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { cell, deleteLine, eventually, insertLineAfter, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page;

before(async () => {
  server = await startServer("notebook");
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/pipelines/clv?partition=2024-01-03");
  // Confirms (remove block) and the unsaved-edits prompt of a reload are accepted.
  page.on("dialog", (d) => d.accept());
  await cell(page, "raw_orders").locator(".cm-content").waitFor();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test("the pipeline page shows the blocks as cells in DAG order, with the DAG", async () => {
  const ids = await page.locator("section.cell[data-block]").evaluateAll((els) => els.map((e) => e.dataset.block));
  assert.deepEqual(ids.slice(0, 3), ["raw_orders", "daily_customer_metrics", "clv"]);
  assert.equal(ids.length, 7);
  assert.equal(await page.locator('[data-testid="dag"] g.node').count(), 7);
  assert.match(await page.locator('[data-testid="partition-picker"]').innerText(), /America\/New_York/);
  assert.equal(await page.locator('[data-testid="partition-input"]').inputValue(), "2024-01-03");
});

test("edit a Go block and run it: stdout, logs and the preview table", async () => {
  await insertLineAfter(page, "raw_orders", "p := ctx.Partition", 'fmt.Println("hello from e2e", p.Key)');
  const c = cell(page, "raw_orders");
  await c.locator('[data-testid="dirty"]').waitFor();
  await page.keyboard.press("Control+Enter");
  await c.locator('[data-testid="preview-table"]').waitFor({ timeout: 30_000 });
  assert.match(await c.locator('[data-testid="stdout"]').innerText(), /hello from e2e 2024-01-03/);
  assert.match(await c.locator('[data-testid="stdout"]').innerText(), /generated orders/);
  const head = await c.locator('[data-testid="preview-table"] thead').innerText();
  for (const col of ["order_id", "customer_id", "ordered_at", "amount", "int64", "float64", "time"]) assert.ok(head.includes(col), `column ${col} in ${head}`);
  assert.match(await c.locator('[data-testid="row-count"]').innerText(), /\d+ rows/);
  // Numbers are right-aligned.
  assert.equal(await c.locator('[data-testid="preview-table"] tbody td.num').first().evaluate((td) => getComputedStyle(td).textAlign), "right");
  await screenshot(page, "notebook-run");
});

test("a compile error is shown at its line in the editor", async () => {
  const line = await insertLineAfter(page, "raw_orders", "hello from e2e", "x := undefinedThing");
  const c = cell(page, "raw_orders");
  await page.keyboard.press("Control+Enter");
  await c.locator('[data-testid="run-error"]').waitFor({ timeout: 30_000 });
  const msg = await c.locator('[data-testid="run-error"]').innerText();
  assert.match(msg, new RegExp(`raw_orders\\.go:${line}:`), msg);
  assert.match(msg, /undefinedThing/);
  // The error is underlined on that very line.
  const underlinedLine = await eventually(
    () => c.locator(".cm-content").evaluate((el) => {
      const lines = [...el.querySelectorAll(".cm-line")];
      return lines.findIndex((l) => l.querySelector(".cm-lintRange-error")) + 1;
    }),
    5000,
    "a lint underline",
  );
  assert.equal(underlinedLine, line);
  await screenshot(page, "notebook-compile-error");
  await deleteLine(page, "raw_orders", "x := undefinedThing");
});

test("save writes the block's file", async () => {
  const c = cell(page, "raw_orders");
  await c.locator('[data-testid="save"]').click();
  await eventually(async () => (await c.locator('[data-testid="dirty"]').count()) === 0, 10_000, "the unsaved marker to go");
  assert.match(await c.locator('[data-testid="cell-status"]').innerText(), /saved/);
  const src = readFileSync(join(server.project, "blocks/raw_orders/raw_orders.go"), "utf8");
  assert.match(src, /hello from e2e/);
  assert.doesNotMatch(src, /undefinedThing/);
});

test("run the pipeline: the DAG and the run's timeline; then a SQL cell reads its upstream", async () => {
  await page.getByRole("button", { name: /Run pipeline for 2024-01-03/ }).click();
  await page.locator('[data-testid="gantt"]').waitFor({ timeout: 60_000 });
  await eventually(async () => (await page.locator('[data-testid="dag"] g.node.succeeded').count()) >= 6, 30_000, "DAG nodes to turn green");
  const c = cell(page, "daily_customer_metrics");
  await c.locator(".cm-content").click();
  await page.keyboard.press("Control+Enter");
  await c.locator('[data-testid="preview-table"]').waitFor({ timeout: 30_000 });
  assert.match(await c.locator('[data-testid="preview-table"] thead').innerText(), /revenue/);
  await screenshot(page, "notebook-pipeline-run");
});

test("times follow the zone setting, which survives a reload", async () => {
  const c = cell(page, "raw_orders");
  await c.locator(".cm-content").click();
  await page.keyboard.press("Control+Enter");
  await c.locator('[data-testid="preview-table"]').waitFor({ timeout: 30_000 });
  await page.locator('[data-testid="zone-mode"]').selectOption("utc");
  await eventually(async () => (await c.locator('[data-testid="preview-table"]').locator("..").locator("..").innerText()).includes("times in UTC"), 5000, "UTC");
  await page.locator('[data-testid="zone-mode"]').selectOption("pipeline");
  await eventually(async () => (await c.locator(".preview-meta").innerText()).includes("times in America/New_York"), 5000, "pipeline zone");
  await page.reload();
  assert.equal(await page.locator('[data-testid="zone-mode"]').inputValue(), "pipeline");
});

test("a reload during a run shows the block still running, then its result", async () => {
  await cell(page, "raw_orders").locator(".cm-content").waitFor();
  // The run waits for a file the test writes once the reloaded page shows it
  // running: a fixed sleep finished before a loaded machine drew the page.
  const gate = join(mkdtempSync(join(tmpdir(), "strata-e2e-")), "go");
  await insertLineAfter(page, "raw_orders", '"math/rand"', '"os"');
  await insertLineAfter(page, "raw_orders", "hello from e2e",
    `for _, err := os.Stat(${JSON.stringify(gate)}); err != nil; _, err = os.Stat(${JSON.stringify(gate)}) { time.Sleep(20 * time.Millisecond) }`);
  await page.keyboard.press("Control+Enter");
  await cell(page, "raw_orders").locator('[data-testid="run-status"][data-phase="running"]').waitFor({ timeout: 30_000 });
  await page.reload();
  const c = cell(page, "raw_orders");
  await c.locator('[data-testid="run-status"][data-phase="running"]').waitFor({ timeout: 30_000 });
  await screenshot(page, "notebook-reload-running");
  writeFileSync(gate, "");
  await c.locator('[data-testid="preview-table"]').waitFor({ timeout: 30_000 });
  assert.equal(await c.locator('[data-testid="run-status"]').getAttribute("data-phase"), "done");
});

test("add a block, wire an edge, remove it", async () => {
  const form = page.locator('[data-testid="add-block"]');
  await form.locator('input[aria-label="new block id"]').fill("orders_per_channel");
  await form.locator('select[aria-label="kind"]').selectOption("sql");
  await form.locator("label", { hasText: "raw_orders" }).locator("input").check();
  await form.getByRole("button", { name: "Add" }).click();
  const c = cell(page, "orders_per_channel");
  await c.locator(".cm-content").waitFor({ timeout: 10_000 });
  assert.match(await c.locator(".cell-head").innerText(), /← raw_orders/);
  assert.equal(await page.locator('[data-testid="dag"] g.node').count(), 8);
  // Edges: read daily_customer_metrics too.
  await c.locator("details.menu summary").click();
  await c.getByRole("button", { name: "Edit upstream…" }).click();
  await c.locator(".edges-editor label", { hasText: "daily_customer_metrics" }).locator("input").check();
  await c.getByRole("button", { name: "Save edges" }).click();
  await eventually(async () => /← raw_orders, daily_customer_metrics/.test(await cell(page, "orders_per_channel").locator(".cell-head").innerText()), 10_000, "the new edge");
  const yaml = readFileSync(join(server.project, "pipelines/clv.yaml"), "utf8");
  assert.match(yaml, /- id: orders_per_channel\n\s+upstream: \[raw_orders, daily_customer_metrics\]/);
  await screenshot(page, "notebook-add-block");
  await cell(page, "orders_per_channel").locator("details.menu summary").click();
  await cell(page, "orders_per_channel").getByRole("button", { name: "Remove block…" }).click();
  await eventually(async () => (await cell(page, "orders_per_channel").count()) === 0, 10_000, "the block to go");
  assert.equal(await page.locator('[data-testid="dag"] g.node').count(), 7);
});
