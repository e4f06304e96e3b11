// Promote part by keyboard only (issue 29): a range typed into the field
// enables Promote part, Tab moves to it (not to Discard), Enter opens the
// promote's confirmation and Enter again confirms; the confirmation lists
// exactly the versions the promote then makes current, the weekly rollup
// staged in the range included (it listed 248 versions and promoted 253).

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page, id;

before(async () => {
  server = await startServer("review-keyboard");
  const first = await server.api("POST", "/backfills", { pipeline: "clv", from: "2024-01-01", to: "2024-01-14" });
  await eventually(async () => (await server.api("GET", `/backfills/${first.id}`)).state === "succeeded", 90_000, "the first backfill");
  const b = await server.api("GET", "/pipelines/clv/blocks/daily_customer_metrics");
  const source = b.source.replace("round(sum(amount), 2)", "round(sum(amount), 0)");
  assert.notEqual(source, b.source, "the demo block rounds revenue to 2 digits");
  await server.api("PUT", "/pipelines/clv/blocks/daily_customer_metrics", { source });
  const st = await server.api("POST", "/backfills", { pipeline: "clv", from: "2024-01-01", to: "2024-01-14", reprocess: "all", publish: "review" });
  id = st.id;
  await eventually(async () => (await server.api("GET", `/backfills/${id}`)).state === "review", 90_000, "the review backfill staged");
  browser = await launchBrowser();
  page = await signedInPage(browser, server, `/backfills/${id}`);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const active = () => page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? document.activeElement?.tagName);

test("promote part by keyboard: the confirmation lists exactly what the promote makes current", async () => {
  const review = page.locator('[data-testid="review"]');
  await review.locator('[data-testid="review-summary"]').waitFor({ timeout: 30_000 });
  const before = await server.api("GET", `/backfills/${id}/review`);
  assert.ok(before.products.some((p) => p.product.includes("weekly")), `the review stages the weekly rollup: ${before.products.map((p) => p.product)}`);

  await review.locator('[data-testid="review-part"]').focus();
  await page.keyboard.type("2024-01-01..2024-01-07");
  await eventually(async () => !(await review.locator('[data-testid="review-promote-part"]').isDisabled()), 5_000, "Promote part enabled by the typed range");
  await page.keyboard.press("Tab");
  assert.equal(await active(), "review-promote-part", "Tab from the range goes to Promote part");
  await page.keyboard.press("Enter");
  const confirm = review.locator('[data-testid="review-confirm"]');
  await confirm.waitFor({ timeout: 20_000 });
  const text = await confirm.innerText();
  assert.match(text, /^Make [\d,]+ staged versions current in one transaction/, "the promote's confirmation, not the discard's");
  const listed = Number(text.match(/^Make ([\d,]+) staged/)[1].replace(/,/g, ""));
  const perProduct = [...text.matchAll(/^(\S+): ([\d,]+) partitions?\b/gm)];
  assert.ok(perProduct.some(([, p]) => p.includes("weekly")), `the weekly rollup is listed:\n${text}`);
  assert.equal(perProduct.reduce((s, [, , k]) => s + Number(k.replace(/,/g, "")), 0), listed, `the products' lines add up to the total:\n${text}`);
  await screenshot(page, "review-keyboard-confirm");

  await eventually(async () => (await active()) === "review-confirm-yes", 5_000, "the focus on Confirm");
  const promoted = page.waitForResponse((r) => r.url().endsWith(`/backfills/${id}/promote`), { timeout: 30_000 });
  await page.keyboard.press("Enter");
  const res = await (await promoted).json();
  assert.equal(res.versions, listed, `the confirmation listed ${listed} versions, the promote made ${res.versions} current`);
  const now = await server.api("GET", `/backfills/${id}/review`);
  assert.equal(now.promotions.length, 1);
  assert.equal(now.promotions[0].versions, listed, "the recorded promotion");
  assert.equal(before.staged - now.staged, listed, "staged versions left");
  await screenshot(page, "review-keyboard-promoted");
});
