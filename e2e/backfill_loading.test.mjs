// The backfill page while it loads: the grid stays where it is first drawn,
// and a click on it opens the partition clicked, whatever arrives later.
// Each test holds one API answer back (page.route) until the grid shows, or
// for a few seconds when the page waits for that answer to draw it.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eventually, launchBrowser, screenshot, startServer } from "./harness.mjs";

let server, browser, bf;

before(async () => {
  server = await startServer("bfload");
  browser = await launchBrowser();
  bf = await server.api("POST", "/backfills", { pipeline: "clv", from: "2024-01-01", to: "2024-01-02", concurrency: 2 });
  await eventually(async () => (await server.api("GET", `/backfills/${bf.id}`)).state === "succeeded", 60_000, "the backfill to succeed");
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** The backfill's page with answers to urls matching held back until release() is called. */
async function pageHolding(held) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  page.on("pageerror", (e) => console.error("page error:", e.message));
  await page.goto(server.url);
  let release;
  const gate = new Promise((r) => (release = r));
  await page.route(held, async (route) => {
    await gate;
    await route.continue();
  });
  await page.goto(`${server.base}/backfills/${bf.id}`);
  return { page, release, canvas: page.locator('[data-testid="partition-grid"] canvas') };
}

/** Whether the grid shows within a few seconds (false: the page waits for what is held). */
const shows = (canvas) => canvas.waitFor({ timeout: 3000 }).then(
  () => true,
  () => false,
);

test("a click on the grid before its partitions are read opens the partition clicked", async () => {
  const { page, release, canvas } = await pageHolding(/\/api\/v1\/backfills\/[^/]+\/partitions/);
  const click = async () => {
    const box = await canvas.boundingBox();
    await page.mouse.click(box.x + 8, box.y + 8); // the first day
  };
  if (await shows(canvas)) {
    await click(); // as a user would, the moment the grid shows
    release();
  } else {
    release();
    await canvas.waitFor();
    await click();
  }
  const drawer = page.locator('[data-testid="partition-drawer"]');
  await drawer.locator("h2", { hasText: "2024-01-01" }).waitFor({ timeout: 10_000 });
  await drawer.locator('[data-testid="block-runs"]').waitFor({ timeout: 10_000 });
  assert.match(await drawer.locator('[data-testid="block-runs"]').innerText(), /raw_orders\s+succeeded/);
  await page.context().close();
});

test("the grid does not move once drawn: the pipeline's calendar is laid out above it first", async () => {
  const { page, release, canvas } = await pageHolding(/\/api\/v1\/pipelines\/clv$/);
  const first = (await shows(canvas)) ? await canvas.boundingBox() : undefined;
  release();
  await page.locator('[data-testid="bf-calendar-grid"] canvas').waitFor();
  await eventually(async () => /succeeded [1-9]/.test(await page.locator(".legend").innerText()), 10_000, "the partitions in the legend");
  const settled = await canvas.boundingBox();
  if (first) assert.deepEqual(settled, first, "the grid moved after it was drawn");
  // Its first cell is where it was drawn: a click there opens the first day.
  await page.mouse.click(settled.x + 8, settled.y + 8);
  await page.locator('[data-testid="partition-drawer"] h2', { hasText: "2024-01-01" }).waitFor({ timeout: 10_000 });
  await screenshot(page, "backfill-loading");
  await page.context().close();
});
