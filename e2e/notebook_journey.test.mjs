// Journey: a project started from nothing in the browser. From an empty
// project (`strata init`), create a pipeline with its partitioning, zone
// and first Go block; add a SQL block at the bottom and a Go block between
// the two; write a Markdown note above the SQL block; run cells and the
// pipeline; reload and still see each cell's last output; then check the
// files written on disk; add a schedule trigger by its form; backfill for
// review from the Backfill… dialog, read the review and promote part of it
// by keyboard, then the rest; and check every file on disk again (pipeline
// YAML with the note and the trigger, the .go and .sql files). One journey,
// one server, one page. Screenshots: artifacts/e2e/journey-*.png.

import assert from "node:assert/strict";
import { readFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { cell, eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page;
let nextName = "";
const dialogs = [];

before(async () => {
  server = await startServer("journey", [], { empty: true });
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/");
  // Confirmations are accepted; a rename's prompt gets the next name the test set.
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    return d.type() === "prompt" ? d.accept(nextName) : d.accept();
  });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const ordersGo = `package orders

import "github.com/stratahq/strata/blocks/sdk"

// Load returns two orders of the partition's day.
func Load(ctx *sdk.Context) (*sdk.Table, error) {
	t := sdk.NewTable(sdk.String("sku"), sdk.Float64("amount"))
	t.Append("a", 0.1)
	t.Append("b", 0.2)
	return t, nil
}
`;

const totalsSQL = "SELECT sum(amount) AS total, count(*) AS n FROM orders";

/** Replaces a cell's text, runs it with Ctrl+Enter and waits for the run to end. */
async function runText(block, text) {
  const c = cell(page, block);
  await c.locator(".cm-content").click();
  await page.keyboard.press("Control+A");
  await page.keyboard.insertText(text);
  await page.keyboard.press("Control+Enter");
  await eventually(async () => (await c.locator('[data-testid="run-status"]').getAttribute("data-phase")) === "done", 60_000, `the run of ${block}`);
  return c;
}

async function save(block) {
  const c = cell(page, block);
  await c.locator('[data-testid="save"]').click();
  await eventually(async () => (await c.locator('[data-testid="cell-status"]').innerText()) === "saved", 10_000, `${block} saved`);
}

/** The cell's result table, row by row. */
async function rowsOf(c) {
  return c.locator('[data-testid="preview-table"]').evaluate((t) => [...t.querySelectorAll("tbody tr")].map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)));
}

test("an empty project offers New pipeline; the form creates it with its zone and first block", async () => {
  const form = page.locator('[data-testid="new-pipeline-form"]');
  await form.waitFor({ timeout: 15_000 });
  assert.equal(await page.locator('[data-testid="no-pipelines"]').count(), 1);
  await screenshot(page, "journey-01-empty-project");
  // A bad zone is refused by the server with the field named, nothing written.
  await form.locator('input[name="id"]').fill("orders_daily");
  await form.locator('input[name="description"]').fill("Orders per day, summed");
  await form.locator('select[name="interval"]').selectOption("day");
  await form.locator('input[name="timezone"]').fill("Europe/Pariss");
  await form.locator('input[name="start"]').fill("2024-01-01");
  await form.locator('input[name="block"]').fill("orders");
  await form.locator('select[name="kind"]').selectOption("go");
  await page.locator('[data-testid="create-pipeline"]').click();
  await eventually(async () => /Europe\/Pariss/.test(await page.locator('[data-testid="new-pipeline-error"]').innerText()), 10_000, "the zone error");
  assert.equal(existsSync(join(server.project, "pipelines/orders_daily.yaml")), false);
  await form.locator('input[name="timezone"]').fill("Europe/Paris");
  await screenshot(page, "journey-02-new-pipeline-form");
  await page.locator('[data-testid="create-pipeline"]').click();
  await cell(page, "orders").locator(".cm-content").waitFor({ timeout: 15_000 });
  assert.match(page.url(), /\/pipelines\/orders_daily/);
  assert.match(await page.locator('[data-testid="partition-picker"]').innerText(), /day partitions in Europe\/Paris/);
});

test("a Go block runs and saves; a SQL block is added below and a Go block between them", async () => {
  let c = await runText("orders", ordersGo);
  assert.deepEqual(await rowsOf(c), [["a", "0.1"], ["b", "0.2"]]);
  await save("orders");

  const add = page.locator('[data-testid="add-block"]');
  await add.locator('input[aria-label="new block id"]').fill("totals");
  await add.locator('select[aria-label="kind"]').selectOption("sql");
  await add.locator("label", { hasText: "orders" }).locator("input").check();
  await add.getByRole("button", { name: "Add" }).click();
  await cell(page, "totals").locator(".cm-content").waitFor({ timeout: 15_000 });
  c = await runText("totals", totalsSQL);
  // The sum of 0.1 and 0.2 is shown as the API and CSV carry it, not rounded.
  assert.deepEqual(await rowsOf(c), [["0.30000000000000004", "2"]]);
  await save("totals");

  // Between orders and totals: the bar above totals.
  await page.locator('[data-testid="insert-totals"] [data-testid="insert-go"]').click();
  const ins = page.locator('[data-testid="insert-form"]');
  await ins.locator('input[name="id"]').fill("cleaned");
  assert.equal(await ins.locator('input[name="up-orders"]').isChecked(), true, "the block above is its upstream by default");
  await ins.getByRole("button", { name: "Add" }).click();
  await cell(page, "cleaned").locator(".cm-content").waitFor({ timeout: 15_000 });
  const order = await page.locator(".cells section.cell[data-block]").evaluateAll((els) => els.map((e) => e.dataset.block));
  assert.deepEqual(order, ["orders", "cleaned", "totals"]);
  // Shift+Enter, as in Jupyter: runs the cell and puts the cursor in the next one.
  await cell(page, "cleaned").locator(".cm-content").click();
  await page.keyboard.press("Shift+Enter");
  await eventually(async () => (await cell(page, "cleaned").locator('[data-testid="run-status"]').getAttribute("data-phase")) === "done", 60_000, "the run of cleaned");
  assert.equal(await page.evaluate(() => document.activeElement?.closest("[data-block]")?.getAttribute("data-block")), "totals");
  await screenshot(page, "journey-03-three-blocks");
});

test("a Markdown note above the SQL block is rendered and kept in the pipeline file", async () => {
  await page.locator('[data-testid="insert-totals"] [data-testid="insert-md"]').click();
  const note = page.locator('[data-testid="note-totals"]');
  await note.locator("textarea").fill("## Totals\n\nThe **sum** of the day's amounts, and how many orders.");
  await note.locator('[data-testid="note-save"]').click();
  await note.locator('[data-testid="note-rendered"] h3').waitFor({ timeout: 10_000 });
  assert.equal(await note.locator("h3").innerText(), "Totals");
  assert.equal(await note.locator("b").innerText(), "sum");
  await screenshot(page, "journey-04-markdown-note");
});

test("run the pipeline, reload: every cell shows its last output again, with its partition and age", async () => {
  const partition = await page.locator('[data-testid="partition-input"]').inputValue();
  await page.getByRole("button", { name: new RegExp(`Run pipeline for ${partition}`) }).click();
  await eventually(async () => (await page.locator('[data-testid="dag"] g.node.succeeded').count()) === 3, 60_000, "the run to succeed");
  // The page links to the run it started, and the Last run panel is this partition's.
  const started = await page.locator('[data-testid="started-run"]').getAttribute("href");
  const runs = await server.api("GET", `/runs?pipeline=orders_daily&partition=${partition}`);
  assert.equal(started, `/runs/${encodeURIComponent(runs.runs[0].run_id)}`);
  await page.locator(".partition-picker button[title='previous partition']").click();
  await eventually(async () => (await page.locator("h3", { hasText: "Last run" }).count()) === 0, 10_000, "no Last run panel for a partition that never ran");
  assert.equal(await page.locator('[data-testid="dag"] g.node.succeeded').count(), 0, "the DAG is not coloured by another partition's run");
  await page.goto(server.base + `/pipelines/orders_daily?partition=${partition}`);
  await page.locator('[data-testid="last-run-open"]').waitFor({ timeout: 10_000 });
  assert.match(await page.locator('[data-testid="last-run-open"]').innerText(), new RegExp(`Last run · ${partition}`));
  for (const [block, rows] of [
    ["orders", [["a", "0.1"], ["b", "0.2"]]],
    ["totals", [["0.30000000000000004", "2"]]],
  ]) {
    const c = cell(page, block);
    await c.locator('[data-testid="run-restored"]').waitFor({ timeout: 15_000 });
    assert.equal(await c.locator('[data-testid="run-status"]').getAttribute("data-phase"), "done");
    assert.match(await c.locator('[data-testid="run-status"]').innerText(), new RegExp(`for ${partition}[\\s\\S]*(just now|s ago|min ago)`));
    await c.locator('[data-testid="preview-table"]').waitFor({ timeout: 15_000 });
    assert.deepEqual(await rowsOf(c), rows, `${block} after the reload`);
  }
  assert.equal(await page.locator('[data-testid="note-totals"] h3').innerText(), "Totals");
  await screenshot(page, "journey-05-after-reload");
});

test("the files on disk are the ones a person would have written", async () => {
  const yaml = readFileSync(join(server.project, "pipelines/orders_daily.yaml"), "utf8");
  assert.match(yaml, /description: Orders per day, summed\n/);
  assert.match(yaml, /partitions:\n  interval: day\n  timezone: Europe\/Paris\n  start: "2024-01-01"\n/);
  assert.match(yaml, /- id: orders\n  - id: cleaned\n    upstream: \[orders\]\n  - id: totals\n    note: \|-\n      ## Totals\n\n      The \*\*sum\*\* of the day's amounts, and how many orders.\n    upstream: \[orders\]\n/);
  assert.equal(readFileSync(join(server.project, "blocks/orders/orders.go"), "utf8"), ordersGo);
  assert.equal(readFileSync(join(server.project, "blocks/totals.sql"), "utf8").trim(), totalsSQL);
  assert.match(readFileSync(join(server.project, "blocks/cleaned/cleaned.go"), "utf8"), /^package cleaned\n[\s\S]*func Transform\(ctx \*sdk.Context, orders \*sdk.Table\)/);
  assert.equal(existsSync(join(server.project, "blocks/totals")), false, "no Go folder for the SQL block");
});

test("rename, move and remove a block from its menu; each says what it changes", async () => {
  const menuOf = async (block, item) => {
    await cell(page, block).locator("details.menu summary").click();
    await cell(page, block).locator(`[data-testid="${item}"]`).click();
  };
  const order = () => page.locator(".cells section.cell[data-block]").evaluateAll((els) => els.map((e) => e.dataset.block));
  // Move: cleaned below totals; totals cannot go above orders, which it reads.
  await menuOf("cleaned", "move-down");
  await eventually(async () => (await order()).join() === "orders,totals,cleaned", 10_000, "cleaned moved down");
  await menuOf("totals", "move-up");
  await eventually(async () => /totals reads orders/.test(await cell(page, "totals").locator('[data-testid="cell-status"]').innerText()), 10_000, "the refusal");
  // Rename: the folder, file and package follow; the prompt said what stays.
  nextName = "clean_orders";
  await menuOf("cleaned", "rename-block");
  await cell(page, "clean_orders").locator(".cm-content").waitFor({ timeout: 10_000 });
  assert.match(dialogs.at(-1), /Stored outputs stay under orders_daily__cleaned/);
  assert.match(readFileSync(join(server.project, "blocks/clean_orders/clean_orders.go"), "utf8"), /^package clean_orders\n/);
  assert.equal(existsSync(join(server.project, "blocks/cleaned")), false);
  // Remove: the confirmation lists the entry and the file, and says the outputs stay.
  await menuOf("clean_orders", "remove-block");
  await eventually(async () => (await cell(page, "clean_orders").count()) === 0, 10_000, "the block to go");
  assert.match(dialogs.at(-1), /Removes:\n  its entry in pipelines\/orders_daily.yaml\n  blocks\/clean_orders\/clean_orders.go/);
  assert.match(dialogs.at(-1), /Stored outputs stay in the warehouse: orders_daily__clean_orders/);
  assert.equal(existsSync(join(server.project, "blocks/clean_orders")), false);
  assert.deepEqual(await order(), ["orders", "totals"]);
  await screenshot(page, "journey-06-after-rename-move-remove");
});

test("drag a block onto another in the DAG to wire it", async () => {
  const add = page.locator('[data-testid="add-block"]');
  await add.locator('input[aria-label="new block id"]').fill("audit");
  await add.locator('select[aria-label="kind"]').selectOption("sql");
  await add.getByRole("button", { name: "Add" }).click();
  await cell(page, "audit").locator(".cm-content").waitFor({ timeout: 15_000 });
  // The form is ready for the next block: no stale id left in it.
  assert.equal(await add.locator('input[aria-label="new block id"]').inputValue(), "");
  assert.match(await cell(page, "audit").locator(".cell-head").innerText(), /source/);
  const dag = page.locator('[data-testid="dag"]');
  const box = async (id) => {
    const b = await dag.locator(`g.node[data-block="${id}"]`).boundingBox();
    return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
  };
  const from = await box("orders"),
    to = await box("audit");
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up();
  await eventually(async () => /← orders/.test(await cell(page, "audit").locator(".cell-head").innerText()), 10_000, "audit to read orders");
  assert.match(dialogs.at(-1), /Make audit read orders\?/);
  assert.match(readFileSync(join(server.project, "pipelines/orders_daily.yaml"), "utf8"), /- id: audit\n    upstream: \[orders\]\n/);
  await screenshot(page, "journey-07-dag-wired");
});

test("Run all stale reruns, in DAG order, the cells an unsaved edit made stale; nothing is published", async () => {
  const before = await server.api("GET", "/products");
  const c = cell(page, "orders");
  await c.locator(".cm-line", { hasText: '"b", 0.2' }).click();
  await page.keyboard.press("End");
  await page.keyboard.press("Backspace");
  await page.keyboard.insertText("25)"); // 0.2 becomes 0.225
  await page.locator('[data-testid="run-all-stale"]').click();
  const progress = page.locator('.page-head ~ [data-testid="upstream-progress"]');
  await eventually(async () => (await progress.getAttribute("data-finished")) === "true", 90_000, "Run all stale to finish");
  const steps = await progress.locator('[data-testid="upstream-step"]').evaluateAll((els) => els.map((e) => `${e.dataset.block}:${e.dataset.state}`));
  assert.deepEqual(steps, ["orders:done", "totals:done", "audit:done"]);
  assert.deepEqual(await rowsOf(cell(page, "totals")), [["0.325", "2"]]);
  assert.deepEqual(await server.api("GET", "/products"), before, "nothing was published");
  await screenshot(page, "journey-08-run-all-stale");
});

const totalsOf = async (day) => (await server.api("GET", "/products/orders_daily__totals/partitions")).partitions.find((p) => p.key === day)?.current ?? 0;
const active = () => page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? "");

test("a schedule trigger added by its form is written into the pipeline file", async () => {
  await save("orders"); // the edit Run all stale ran, now kept
  await page.locator('[data-testid="trigger-add"]').click();
  const form = page.locator('[data-testid="trigger-form"]');
  await form.waitFor();
  await form.locator('[data-testid="trigger-form-id"]').fill("nightly");
  await form.locator('[data-testid="trigger-form-cron"]').fill("0 6 * * *");
  const ticks = form.locator('[data-testid="trigger-form-preview"] li');
  // The preview follows the typing (debounced): five ticks at 06:00 in the pipeline's zone, Europe/Paris.
  await eventually(async () => {
    const ts = await ticks.allInnerTexts();
    return ts.length === 5 && ts.every((t) => / 06:00 CES?T in /.test(t));
  }, 10_000, "five next ticks at 06:00 Paris time");
  await screenshot(page, "journey-09-trigger-form");
  await form.locator('[data-testid="trigger-form-save"]').click();
  const card = page.locator('[data-testid="trigger-nightly"]');
  await card.waitFor({ timeout: 10_000 });
  assert.match(await card.innerText(), /cron 0 6 \* \* \* in Europe\/Paris/);
  const yaml = readFileSync(join(server.project, "pipelines/orders_daily.yaml"), "utf8");
  assert.ok(yaml.endsWith('triggers:\n  - id: nightly\n    schedule:\n      cron: "0 6 * * *"\n'), yaml);
});

test("backfill for review from the dialog; promote part of it by keyboard, then the rest", async () => {
  await page.locator('[data-testid="open-backfill"]').click();
  const dialog = page.locator('[data-testid="backfill-dialog"]');
  await dialog.waitFor();
  await dialog.locator('[data-testid="bf-from"]').fill("2024-01-01");
  await dialog.locator('[data-testid="bf-to"]').fill("2024-01-04");
  await dialog.locator('[data-testid="bf-to"]').press("Tab");
  assert.equal(await dialog.locator('[data-testid="bf-publish"]').inputValue(), "review");
  await eventually(async () => !(await dialog.locator('[data-testid="bf-launch"]').isDisabled()), 30_000, "launch enabled after the plan");
  await screenshot(page, "journey-10-backfill-dialog");
  await dialog.locator('[data-testid="bf-launch"]').click();
  await page.waitForURL(/\/backfills\/bf_/, { timeout: 30_000 });
  await eventually(async () => (await page.locator('[data-testid="bf-state"]').innerText()) === "review", 120_000, "ready for review");
  assert.equal(await totalsOf("2024-01-01"), 0, "nothing published before the review");
  const review = page.locator('[data-testid="review"]');
  await review.locator('[data-testid="review-summary"]').waitFor({ timeout: 30_000 });
  assert.match(await review.locator('[data-testid="review-summary"]').innerText(), /orders_daily__totals/);
  await screenshot(page, "journey-11-review");
  // Promote part, by keyboard only: type the range, Tab to its button, Enter, Enter.
  await review.locator('[data-testid="review-part"]').focus();
  await page.keyboard.type("2024-01-01..2024-01-02");
  await page.keyboard.press("Tab");
  assert.equal(await active(), "review-promote-part");
  await page.keyboard.press("Enter");
  const confirm = review.locator('[data-testid="review-confirm"]');
  await confirm.waitFor({ timeout: 20_000 });
  assert.match(await confirm.innerText(), /orders_daily__totals: 2 partitions \(2024-01-01 … 2024-01-02\)/);
  await eventually(async () => (await active()) === "review-confirm-yes", 5_000, "the focus on Confirm");
  await page.keyboard.press("Enter");
  await eventually(async () => (await totalsOf("2024-01-02")) === 1, 20_000, "2024-01-02 promoted");
  assert.equal(await totalsOf("2024-01-03"), 0, "2024-01-03 is not in the part");
  await screenshot(page, "journey-12-promoted-part");
  await review.locator('[data-testid="review-promote"]').click();
  await confirm.waitFor({ timeout: 20_000 });
  assert.match(await confirm.innerText(), /orders_daily__totals: 2 partitions \(2024-01-03 … 2024-01-04\)/);
  await confirm.locator('[data-testid="review-confirm-yes"]').click();
  await eventually(async () => (await totalsOf("2024-01-04")) === 1, 20_000, "the rest promoted");
  await eventually(async () => (await page.locator('[data-testid="bf-state"]').innerText()) === "succeeded", 20_000, "the backfill succeeded");
  await screenshot(page, "journey-13-backfill-done");
});

test("at the end, the files on disk hold everything made in the browser", async () => {
  const yaml = readFileSync(join(server.project, "pipelines/orders_daily.yaml"), "utf8");
  assert.match(yaml, /partitions:\n  interval: day\n  timezone: Europe\/Paris\n/);
  assert.match(yaml, /  - id: totals\n    note: \|-\n      ## Totals\n/, "the Markdown note");
  assert.match(yaml, /  - id: audit\n    upstream: \[orders\]\n/);
  assert.match(yaml, /triggers:\n  - id: nightly\n    schedule:\n      cron: "0 6 \* \* \*"\n/, "the trigger");
  assert.equal(readFileSync(join(server.project, "blocks/orders/orders.go"), "utf8"), ordersGo.replace('"b", 0.2)', '"b", 0.225)'));
  assert.equal(readFileSync(join(server.project, "blocks/totals.sql"), "utf8").trim(), totalsSQL);
  assert.ok(existsSync(join(server.project, "blocks/audit.sql")), "the SQL block added last");
  await screenshot(page, "journey-14-end");
});
