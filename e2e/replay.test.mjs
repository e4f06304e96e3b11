// The replay journey: a block changes on disk; "Replay…" on its cell asks
// for the days (and whether the block must stay unchanged: a gate) and
// runs the saved code over the stored days, each block on the inputs it
// recorded, publishing nothing; the result is drawn on the calendar (a day
// per cell: unchanged, changed, failed) with the counts; a day opens to the
// block's changed rows, stored above replayed.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { cell, eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page;

before(async () => {
  server = await startServer("replay");
  const st = await server.api("POST", "/backfills", { pipeline: "clv", from: "2024-01-01", to: "2024-01-10" });
  await eventually(async () => (await server.api("GET", `/backfills/${st.id}`)).state === "succeeded", 90_000, "the backfill");
  // Revenue rounded to whole units from now on: every customer's revenue changes.
  const b = await server.api("GET", "/pipelines/clv/blocks/daily_customer_metrics");
  const source = b.source.replace("round(sum(amount), 2)", "round(sum(amount), 0)");
  assert.notEqual(source, b.source, "the demo block rounds revenue to 2 digits");
  await server.api("PUT", "/pipelines/clv/blocks/daily_customer_metrics", { source });
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/pipelines/clv?partition=2024-01-05");
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const current = async (day) => (await server.api("GET", "/products/daily_customer_metrics/partitions")).partitions.find((p) => p.key === day).current;

test("Replay on a cell: days and the gate, the calendar of changed days, a day's rows", async () => {
  const c = cell(page, "daily_customer_metrics");
  await c.locator('[data-testid="replay"]').click();
  const panel = c.locator('[data-testid="replay-panel"]');
  await panel.waitFor();
  const days = panel.locator('[data-testid="replay-days"]');
  assert.equal(await days.inputValue(), "30");
  await days.fill("0");
  await panel.locator('[data-testid="replay-start"]').click();
  assert.match(await panel.locator('[data-testid="replay-error"]').innerText(), /days: want a whole number of 1 or more, got 0/);
  await days.fill("20");
  await panel.locator('[data-testid="replay-expect"]').check();
  await panel.locator('[data-testid="replay-start"]').click();
  const counts = panel.locator('[data-testid="replay-counts"]');
  await counts.waitFor({ timeout: 120_000 });
  // Ten days and their two weeks (the weekly rollup read the stored days: unchanged).
  assert.match(await counts.innerText(), /^12 partitions: 2 unchanged · 10 changed · 0 failed/);
  assert.match(await panel.locator('[data-testid="replay-gate"]').innerText(), /expect daily_customer_metrics unchanged: FAILED \(changed in 10, failed in 0 partitions\)/);
  assert.match(await panel.locator("h3").innerText(), /Replay on the last 20 days/);
  assert.match(await panel.locator('[data-testid="replay-notable"]').innerText(), /2024-01-01 \(changed\).*2024-01-10 \(changed\)/s);
  const cal = panel.locator('[data-testid="replay-calendar"]');
  await eventually(() => cal.evaluate((el) => el.calendar.shown), 20_000, "the calendar");
  const colors = await cal.evaluate((el) => ["2024-01-03", "2024-01-11"].map((d) => el.calendar.color(d) ?? null));
  assert.equal(colors[0], "#f2b84b", "a changed day is amber");
  assert.equal(colors[1], null, "a day not replayed has no color");
  const at = await cal.evaluate((el) => el.calendar.cellCenter("2024-01-03"));
  await cal.evaluate((el, y) => (el.scrollTop = y - 40), at.y);
  await cal.scrollIntoViewIfNeeded();
  const box = await cal.locator("canvas").boundingBox();
  await page.mouse.click(box.x + at.x, box.y + at.y);
  const day = panel.locator('[data-testid="replay-day"]');
  await day.waitFor({ timeout: 10_000 });
  assert.match(await day.innerText(), /2024-01-03 · changed/);
  const blk = day.locator('[data-testid="replay-block-daily_customer_metrics"]');
  assert.match(await blk.innerText(), /changed\s+\d+ changed, 0 added, 0 removed .* key customer_id/);
  assert.ok((await blk.locator("tr.old.changed").count()) > 0 && (await blk.locator("tr.new.changed").count()) > 0, "stored and replayed rows");
  assert.match(await day.locator('[data-testid="replay-block-clv"]').innerText(), /unchanged/);
  await screenshot(page, "replay-calendar");
  assert.equal(await current("2024-01-03"), 1, "a replay publishes nothing");
});
