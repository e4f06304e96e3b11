// Journey: a change reviewed before it is published. A block's change is
// saved from the editor; Backfill… launches it for review over six days;
// the review shows what changes per product and per column (before → after,
// the changed column first); part of it is promoted by keyboard, then the
// rest; the product's new version links to the run that wrote it, and that
// run lists the versions it wrote. Screenshots at each step.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { cell, eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page, backfill;

before(async () => {
  server = await startServer("journey-review");
  const st = await server.api("POST", "/backfills", { pipeline: "clv", from: "2024-01-01", to: "2024-01-06" });
  await eventually(async () => (await server.api("GET", `/backfills/${st.id}`)).state === "succeeded", 120_000, "the first backfill");
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/pipelines/clv?partition=2024-01-03");
  await cell(page, "daily_customer_metrics").locator(".cm-content").waitFor({ timeout: 30_000 });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const current = async (day) => (await server.api("GET", "/products/daily_customer_metrics/partitions")).partitions.find((p) => p.key === day).current;
const active = () => page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? "");

test("a change saved from the editor is backfilled for review", async () => {
  const c = cell(page, "daily_customer_metrics");
  // Revenue in whole units from now on: round(sum(amount), 2) → 0, typed over the cell's text.
  const { source } = await server.api("GET", "/pipelines/clv/blocks/daily_customer_metrics");
  const changed = source.replace("round(sum(amount), 2)", "round(sum(amount), 0)");
  assert.notEqual(changed, source);
  await c.locator(".cm-content").click();
  await page.keyboard.press("Control+A");
  await page.keyboard.insertText(changed);
  await page.keyboard.press("Control+s");
  await eventually(async () => (await c.locator('[data-testid="dirty"]').count()) === 0, 10_000, "saved");

  await page.locator('[data-testid="open-backfill"]').click();
  const dialog = page.locator('[data-testid="backfill-dialog"]');
  await dialog.waitFor();
  await dialog.locator('[data-testid="bf-from"]').fill("2024-01-01");
  await dialog.locator('[data-testid="bf-to"]').fill("2024-01-06");
  await dialog.locator('[data-testid="bf-to"]').press("Tab");
  await dialog.locator('[data-testid="bf-reprocess"]').selectOption("all");
  assert.equal(await dialog.locator('[data-testid="bf-publish"]').inputValue(), "review");
  await eventually(async () => /^6 partitions to run/.test(await dialog.locator('[data-testid="plan-headline"]').innerText()), 30_000, "the plan");
  await screenshot(page, "journey-review-01-dialog");
  await eventually(async () => !(await dialog.locator('[data-testid="bf-launch"]').isDisabled()), 10_000, "launch enabled");
  await dialog.locator('[data-testid="bf-launch"]').click();
  await page.waitForURL(/\/backfills\/bf_/);
  backfill = decodeURIComponent(new URL(page.url()).pathname.split("/").pop());
  await eventually(async () => (await page.locator('[data-testid="bf-state"]').innerText()) === "review", 120_000, "ready for review");
  assert.equal(await current("2024-01-03"), 1, "nothing published yet");
});

test("the review: per product, then per column before → after", async () => {
  const review = page.locator('[data-testid="review"]');
  await review.locator('[data-testid="review-summary"]').waitFor({ timeout: 30_000 });
  assert.match(await review.locator('[data-testid="review-summary"]').innerText(), /daily_customer_metrics\s+6\s+0\s+0/);
  const cols = review.locator('[data-testid="review-columns"]');
  await cols.waitFor({ timeout: 10_000 });
  const first = cols.locator("tbody tr").first();
  assert.equal(await first.getAttribute("data-col"), "revenue", "the changed column first");
  const revenue = await first.innerText();
  assert.match(revenue, /revenue\s+changed/);
  assert.match(revenue, /→/, "its statistics before → after");
  assert.match(revenue, /[+-]\d+\.\d+%/, "with the mean's and total's change");
  const orders = await cols.locator('tr[data-col="orders"]').innerText();
  assert.doesNotMatch(orders, /changed|→/, "an unchanged column reads one value per statistic");
  await screenshot(page, "journey-review-02-columns");
});

test("promote part by keyboard, then the rest", async () => {
  const review = page.locator('[data-testid="review"]');
  await review.locator('[data-testid="review-part"]').focus();
  await page.keyboard.type("2024-01-01..2024-01-03");
  await page.keyboard.press("Tab");
  assert.equal(await active(), "review-promote-part");
  await page.keyboard.press("Enter");
  const confirm = review.locator('[data-testid="review-confirm"]');
  await confirm.waitFor({ timeout: 20_000 });
  assert.match(await confirm.innerText(), /daily_customer_metrics: 3 partitions \(2024-01-01 … 2024-01-03\)/);
  await eventually(async () => (await active()) === "review-confirm-yes", 5_000, "the focus on Confirm");
  await page.keyboard.press("Enter");
  await eventually(async () => (await current("2024-01-02")) === 2, 20_000, "2024-01-02 promoted");
  assert.equal(await current("2024-01-05"), 1, "2024-01-05 is not in the part");
  await screenshot(page, "journey-review-03-part");
  await review.locator('[data-testid="review-promote"]').click();
  await confirm.waitFor({ timeout: 20_000 });
  assert.match(await confirm.innerText(), /daily_customer_metrics: 3 partitions \(2024-01-04 … 2024-01-06\)/);
  await confirm.locator('[data-testid="review-confirm-yes"]').click();
  await eventually(async () => (await current("2024-01-05")) === 2, 20_000, "the rest promoted");
  await eventually(async () => (await page.locator('[data-testid="bf-state"]').innerText()) === "succeeded", 20_000, "the backfill succeeded");
});

test("the promoted version links to the run that wrote it, which lists it", async () => {
  await page.goto(server.base + "/products/daily_customer_metrics?partition=2024-01-02");
  const link = page.locator('[data-testid="versions"] tr.current [data-testid="version-run"]');
  await link.waitFor({ timeout: 20_000 });
  const run = await link.innerText();
  assert.ok(run.startsWith(backfill + ":2024-01-02"), `the version's run is the backfill's attempt: ${run}`);
  await screenshot(page, "journey-review-04-product");
  await link.click();
  const row = page.locator('[data-testid="run-versions"] tr', { hasText: "daily_customer_metrics" });
  await row.waitFor({ timeout: 20_000 });
  assert.match(await row.innerText(), /daily_customer_metrics\s+2024-01-02\s+v2 current/);
  await screenshot(page, "journey-review-05-run");
});
