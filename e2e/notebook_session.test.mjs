// Journey: a notebook session. Cells feed cells: a downstream cell reads the
// draft its upstream cell just produced in this tab, with nothing published,
// and says so.

import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { cell, eventually, insertLineAfter, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page;

before(async () => {
  server = await startServer("session");
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/pipelines/clv?partition=2024-01-03");
  await cell(page, "raw_orders").locator(".cm-content").waitFor();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test("a downstream cell reads its upstream cell's unsaved output (the session's draft) and says so", async () => {
  // Forty customers instead of thousands: a handful of orders.
  await insertLineAfter(page, "raw_orders", "seconds := int64(", "customers = 40");
  const up = cell(page, "raw_orders");
  await page.keyboard.press("Control+Enter");
  await up.locator('[data-testid="preview-table"]').waitFor({ timeout: 30_000 });
  const orders = Number((await up.locator('[data-testid="row-count"]').innerText()).match(/^(\d+)/)[1]);
  assert.ok(orders >= 1 && orders < 40, `${orders} orders from 40 customers`);
  // Nothing is published: the SQL cell below runs on the draft.
  const down = cell(page, "daily_customer_metrics");
  await down.locator(".cm-content").click();
  await page.keyboard.press("Control+Enter");
  await down.locator('[data-testid="preview-table"]').waitFor({ timeout: 30_000 });
  const rows = Number((await down.locator('[data-testid="row-count"]').innerText()).match(/^(\d+)/)[1]);
  assert.ok(rows >= 1 && rows <= orders, `daily metrics of ${orders} orders: ${rows} rows`);
  assert.match(await down.locator('[data-testid="input-raw_orders"]').innerText(), /^raw_orders: your draft from \d\d:\d\d$/);
  await screenshot(page, "session-draft-feeds-downstream");
  // Publish the saved pipeline; a cell reading published data says which version.
  await page.getByRole("button", { name: /Run pipeline for 2024-01-03/ }).click();
  // Every block of the run is coloured, the dynamic children's block too.
  await eventually(async () => (await page.locator('[data-testid="dag"] g.node.succeeded').count()) === 7, 60_000, "all 7 DAG nodes to turn green");
  const clv = cell(page, "clv");
  await clv.locator(".cm-content").click();
  await page.keyboard.press("Control+Enter");
  await clv.locator('[data-testid="preview-table"]').waitFor({ timeout: 30_000 });
  // clv reads daily_customer_metrics: this session's draft of it, which wins over published.
  assert.match(await clv.locator('[data-testid="input-daily_customer_metrics"]').innerText(), /your draft/);
  // Another tab is another session: it has no drafts and reads published v1.
  const other = await signedInPage(browser, server, "/pipelines/clv?partition=2024-01-03");
  const d2 = cell(other, "daily_customer_metrics");
  await d2.locator(".cm-content").click();
  await other.keyboard.press("Control+Enter");
  await d2.locator('[data-testid="preview-table"]').waitFor({ timeout: 30_000 });
  assert.equal(await d2.locator('[data-testid="input-raw_orders"]').innerText(), "raw_orders: published v1");
  await other.context().close();
});

test("unsaved edits survive a reload (restored with a banner); the reload asks first", async () => {
  const dialogs = [];
  const onDialog = (d) => {
    dialogs.push(d.type());
    void d.accept();
  };
  page.on("dialog", onDialog);
  // raw_orders still holds the unsaved "customers = 40".
  assert.equal(await cell(page, "raw_orders").locator('[data-testid="dirty"]').count(), 1);
  await page.reload();
  await cell(page, "raw_orders").locator(".cm-content").waitFor();
  assert.ok(dialogs.includes("beforeunload"), `dialogs: ${dialogs}`);
  const c = cell(page, "raw_orders");
  await c.locator('[data-testid="restored"]').waitFor({ timeout: 10_000 });
  assert.match(await c.locator(".cm-content").innerText(), /customers = 40/);
  assert.equal(await c.locator('[data-testid="dirty"]').count(), 1);
  await screenshot(page, "session-restored-draft");
});

test("a file changed on disk while a cell has edits: the edits stay, the difference shows; overwrite writes mine", async () => {
  const file = join(server.project, "blocks/raw_orders/raw_orders.go");
  const disk = readFileSync(file, "utf8").replace("package raw_orders", "package raw_orders\n\n// changed by another editor");
  writeFileSync(file, disk);
  const c = cell(page, "raw_orders");
  await c.locator('[data-testid="conflict"]').waitFor({ timeout: 10_000 });
  assert.match(await c.locator('[data-testid="conflict-diff"]').innerText(), /\+ on disk: \/\/ changed by another editor/);
  assert.match(await c.locator('[data-testid="conflict-diff"]').innerText(), /- yours: +\s*customers = 40/);
  assert.match(await c.locator(".cm-content").innerText(), /customers = 40/, "the unsaved edit was overwritten");
  await c.locator('[data-testid="conflict-overwrite"]').click();
  await eventually(async () => readFileSync(file, "utf8").includes("customers = 40"), 10_000, "mine to be written");
  assert.doesNotMatch(readFileSync(file, "utf8"), /changed by another editor/);
  await eventually(async () => (await c.locator('[data-testid="conflict"]').count()) === 0, 5000, "the banner to go");
});

test("a clean cell takes a change made on disk; a stale save is refused with 412 and reload takes theirs", async () => {
  const c = cell(page, "clv");
  await insertLineAfter(page, "clv", "package clv", "// mine, unsaved");
  // Another tab saves clv first (the API, as a second tab would).
  const current = await server.api("GET", "/pipelines/clv/blocks/clv");
  await server.api("PUT", "/pipelines/clv/blocks/clv", { source: current.source.replace("package clv", "package clv\n\n// theirs, saved") });
  await c.locator('[data-testid="save"]').click();
  await c.locator('[data-testid="conflict"]').waitFor({ timeout: 10_000 });
  await eventually(async () => /not saved: changed elsewhere/.test(await c.locator('[data-testid="cell-status"]').innerText()), 5000, "the 412 refusal");
  assert.match(readFileSync(join(server.project, "blocks/clv/clv.go"), "utf8"), /theirs, saved/);
  assert.doesNotMatch(readFileSync(join(server.project, "blocks/clv/clv.go"), "utf8"), /mine, unsaved/);
  await c.locator('[data-testid="conflict-reload"]').click();
  assert.match(await c.locator(".cm-content").innerText(), /theirs, saved/);
  assert.equal(await c.locator('[data-testid="dirty"]').count(), 0);
  // A clean cell follows the disk without asking.
  const d = cell(page, "daily_customer_metrics");
  writeFileSync(join(server.project, "blocks/daily_customer_metrics.sql"), "SELECT 42 AS from_disk FROM raw_orders\n");
  await eventually(async () => (await d.locator(".cm-content").innerText()).includes("from_disk"), 10_000, "the clean cell to take the new file");
});

test("the edge editor keeps the upstream order (a Transform's parameters) and refuses a cycle, naming it", async () => {
  const yamlFile = join(server.project, "pipelines/clv.yaml");
  const st = cell(page, "segment_stats");
  await st.locator("details.menu summary").click();
  await st.getByRole("button", { name: "Edit upstream…" }).click();
  await st.getByRole("button", { name: "Save edges" }).click();
  await eventually(async () => /edges saved/.test(await cell(page, "segment_stats").locator('[data-testid="cell-status"]').innerText()), 10_000, "edges saved");
  assert.match(readFileSync(yamlFile, "utf8"), /- id: segment_stats\n\s+upstream: \[segments, clv\]/);
  const before = readFileSync(yamlFile, "utf8");
  const raw = cell(page, "raw_orders");
  await raw.locator("details.menu summary").click();
  await raw.getByRole("button", { name: "Edit upstream…" }).click();
  await raw.locator(".edges-editor label", { hasText: /^\s*clv\s*$/ }).locator("input").check();
  await raw.getByRole("button", { name: "Save edges" }).click();
  await eventually(async () => /cycle/.test(await raw.locator('[data-testid="cell-status"]').innerText()), 5000, "the refusal");
  assert.match(await raw.locator('[data-testid="cell-status"]').innerText(), /raw_orders → daily_customer_metrics → clv → raw_orders/);
  assert.equal(readFileSync(yamlFile, "utf8"), before);
});

test("a pipeline file broken on disk keeps the cells, shows the problem at its line, and a save still saves", async () => {
  const yamlFile = join(server.project, "pipelines/clv.yaml");
  const good = readFileSync(yamlFile, "utf8");
  writeFileSync(yamlFile, good.replace("blocks:\n", "blocks:\n   oops: [\n"));
  await page.locator('[data-testid="pipeline-problems"]').waitFor({ timeout: 10_000 });
  assert.match(await page.locator('[data-testid="pipeline-problems"]').innerText(), /pipelines\/clv\.yaml:\d+/);
  assert.equal(await page.locator("section.cell[data-block]").count(), 7, "every cell stays");
  const d = cell(page, "daily_customer_metrics");
  await d.locator('[data-testid="unlisted"]').waitFor();
  await insertLineAfter(page, "daily_customer_metrics", "from_disk", "-- saved while the pipeline was broken");
  await d.locator('[data-testid="save"]').click();
  await eventually(async () => /^saved/.test(await d.locator('[data-testid="cell-status"]').innerText()), 10_000, "saved");
  assert.match(readFileSync(join(server.project, "blocks/daily_customer_metrics.sql"), "utf8"), /saved while the pipeline was broken/);
  writeFileSync(yamlFile, good);
  await eventually(async () => (await page.locator('[data-testid="pipeline-problems"]').count()) === 0, 10_000, "the problems to clear");
  await eventually(async () => (await d.locator('[data-testid="unlisted"]').count()) === 0, 10_000, "the cell listed again");
  assert.equal(await page.locator('[data-testid="partition-input"]').inputValue(), "2024-01-03", "the chosen partition is kept");
});

test("an int64 beyond 2^53 shows exactly (…993, not …992); _partition is not an input column", async () => {
  // A tab of its own (the pipeline for 2024-01-03 is published by now).
  const p2 = await signedInPage(browser, server, "/pipelines/clv?partition=2024-01-03");
  const d = cell(p2, "daily_customer_metrics");
  await d.locator(".cm-content").click();
  await p2.keyboard.press("Control+A");
  await p2.keyboard.insertText("SELECT 9007199254740993::BIGINT AS big, * FROM raw_orders LIMIT 1");
  await p2.keyboard.press("Control+Enter");
  await eventually(async () => (await d.locator('[data-testid="run-status"]').getAttribute("data-phase")) === "done", 30_000, "the run");
  const head = await d.locator('[data-testid="preview-table"] thead').innerText();
  assert.doesNotMatch(head, /_partition/);
  assert.equal(await d.locator('[data-testid="preview-table"] tbody td').first().innerText(), "9007199254740993");
  await p2.context().close();
});

test("the run timer counts while a cell runs; Restart kernel stops it and starts a fresh kernel", async () => {
  const p3 = await signedInPage(browser, server, "/pipelines/clv?partition=2024-01-03");
  p3.on("dialog", (d) => void d.accept());
  await insertLineAfter(p3, "raw_orders", "p := ctx.Partition", "time.Sleep(20 * time.Second)");
  await p3.keyboard.press("Control+Enter");
  const c = cell(p3, "raw_orders");
  const timer = c.locator('[data-testid="run-timer"]');
  await timer.waitFor({ timeout: 10_000 });
  const t1 = await timer.innerText();
  await eventually(async () => (await timer.innerText()) !== t1, 5000, "the timer to move");
  await p3.locator('[data-testid="restart-kernel"]').click();
  await eventually(async () => /kernel restarted/.test(await p3.locator('[data-testid="kernel-note"]').innerText()), 15_000, "the restart");
  await eventually(async () => (await c.locator('[data-testid="run-status"]').getAttribute("data-phase")) === "interrupted", 10_000, "the running cell to stop");
  assert.match(await c.locator('[data-testid="run-error"]').innerText(), /kernel was restarted/);
  await p3.context().close();
});
