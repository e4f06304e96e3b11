// The /backfills form's From/To hint and placeholder show a key of now
// (the latest complete partition in the range's interval and zone, which
// is also the form's default To), not a fixed example date.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page;

before(async () => {
  server = await startServer("backfill-hint");
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/backfills?pipeline=clv");
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** The key in the From label's hint "(KEY, ZONE)". */
async function hint() {
  const label = await page.locator("label", { has: page.locator('[data-testid="bf-from"]') }).innerText();
  return /\(([^,]+),/.exec(label)?.[1] ?? "";
}

test("the From/To hint is the latest partition now, in the range's interval", async () => {
  const to = page.locator('[data-testid="bf-to"]');
  await eventually(async () => (await to.inputValue()) !== "", 15_000, "the form's defaults");
  const latest = await to.inputValue();
  assert.match(latest, /^\d{4}-\d\d-\d\d$/);
  assert.equal(await hint(), latest, "the day hint is the latest complete day (the default To)");
  assert.equal(await page.locator('[data-testid="bf-from"]').getAttribute("placeholder"), latest);
  assert.notEqual(latest, "2024-03-10");
  await page.locator('[data-testid="bf-interval"]').selectOption("week");
  await eventually(async () => /^\d{4}-W\d\d$/.test(await hint()), 10_000, "a week key in the hint");
  assert.equal(await hint(), await to.inputValue(), "the week hint is the latest complete week (the default To)");
  await screenshot(page, "backfill-hint");
});
