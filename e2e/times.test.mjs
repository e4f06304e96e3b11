// Journey: one display zone everywhere, always labelled. With the default
// setting (the pipeline's zone) the Runs list and Products list used UTC,
// unlabelled, while the run and backfill pages used New York time; the run
// page's logs carried the kernel's own clock. Now the lists use the
// project's pipelines' zone, and every time says which zone it is in.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

const NY = "America/New_York";
let server, browser, page, runId;

before(async () => {
  server = await startServer("times");
  browser = await launchBrowser();
  const r = await server.api("POST", "/pipelines/clv/runs", { partition: "2024-03-10" });
  runId = r.run_id;
  await eventually(async () => (await server.api("GET", `/runs/${encodeURIComponent(runId)}`)).state === "succeeded", 60_000, "the run");
  page = await signedInPage(browser, server, "/runs");
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** "2024-03-10 08:00:00" for an instant in zone, as the UI formats it. */
function inZone(iso, zone) {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", { timeZone: zone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit" })
      .formatToParts(new Date(iso))
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`;
}

test("the Runs list is in the pipelines' zone, labelled", async () => {
  const run = await server.api("GET", `/runs/${encodeURIComponent(runId)}`);
  await page.locator('[data-testid="runs-table"]').waitFor({ timeout: 15_000 });
  await eventually(async () => (await page.locator('[data-testid="runs-started-head"]').innerText()) === `started (${NY})`, 10_000, "the labelled header");
  assert.match(await page.locator('[data-testid="zone-mode"] option:checked').innerText(), /Pipeline zone \(America\/New_York\)/);
  const row = page.locator(`[data-testid="run-row"][data-run="${runId}"] td`).first();
  assert.equal(await row.innerText(), inZone(run.started_at, NY));
  await screenshot(page, "times-runs");
});

test("the Products list is in the same zone, labelled", async () => {
  await page.goto(server.base + "/products");
  await eventually(async () => (await page.locator('[data-testid="products-updated-head"]').innerText()) === `updated (${NY})`, 15_000, "the labelled header");
});

test("the run page's logs are in the same zone, labelled", async () => {
  const run = await server.api("GET", `/runs/${encodeURIComponent(runId)}`);
  const log = run.blocks.find((b) => b.block === "raw_orders").log.split("\n")[0];
  const at = /^(\S+Z) /.exec(log)?.[1];
  assert.ok(at, `the log line starts with its UTC instant: ${log}`);
  await page.goto(server.base + `/runs/${encodeURIComponent(runId)}`);
  await page.locator('[data-testid="log-raw_orders"]').waitFor({ timeout: 15_000 });
  assert.equal(await page.locator('[data-testid="log-zone"]').innerText(), NY);
  const first = await page.locator('[data-testid="log-raw_orders"] .log-line').first().innerText();
  assert.ok(first.includes(inZone(at, NY).slice(11) + "." + at.slice(20, 23) + " info generated orders"), `first line ${first} for ${at}`);
  await screenshot(page, "times-run-logs");
});
