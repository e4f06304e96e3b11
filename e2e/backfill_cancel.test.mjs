// Journey: Cancel on a backfill asks first. One click used to cancel every
// unfinished partition (1,461 in the walk); now the page says how many it
// will cancel and waits for a second, explicit click. Keep running leaves the
// backfill as it was.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page, bf;

before(async () => {
  server = await startServer("bfcancel");
  browser = await launchBrowser();
  // Slow on purpose (one partition a minute): it is still running when the test clicks.
  bf = await server.api("POST", "/backfills", { pipeline: "clv", from: "2024-01-01", to: "2024-12-31", concurrency: 1, rate_per_min: 1 });
  page = await signedInPage(browser, server, `/backfills/${bf.id}`);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const apiState = async () => (await server.api("GET", `/backfills/${bf.id}`)).state;

test("Cancel asks for confirmation, naming how many partitions it cancels", async () => {
  await page.locator('[data-testid="bf-cancel"]').click();
  const ask = page.locator('[data-testid="bf-cancel-confirm"]');
  await ask.waitFor({ timeout: 5000 });
  const total = (await server.api("GET", `/backfills/${bf.id}`)).total; // days and the weekly rollup's weeks
  assert.ok(total > 366, `total ${total}`);
  assert.match(await ask.innerText(), new RegExp(`Cancel \\d+ unfinished partitions of ${total}\\?`));
  assert.notEqual(await apiState(), "cancelled", "one click cancelled the backfill");
  await screenshot(page, "backfill-cancel-confirm");
  await page.locator('[data-testid="bf-cancel-no"]').click();
  await eventually(async () => (await ask.count()) === 0, 5000, "the question to go");
  assert.notEqual(await apiState(), "cancelled");

  await page.locator('[data-testid="bf-cancel"]').click();
  await page.locator('[data-testid="bf-cancel-yes"]').click();
  await eventually(async () => (await apiState()) === "cancelled", 15_000, "cancelled after the confirmation");
});
