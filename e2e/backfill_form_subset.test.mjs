// The standalone /backfills form narrows a backfill two ways at once: a
// subset of the blocks (as the pipeline page's Backfill… dialog) and some
// values of a value dimension (strata backfill --where). Only those blocks
// run, only in those cells; the left-out downstream turns stale there only.

import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

const PIPELINE = `partitions:
  interval: day
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: region
      values: [us, eu, apac]
blocks:
  - id: src
  - id: agg
    upstream: [src]
  - id: weekly
    upstream: [agg]
    partitions: {interval: week}
`;

let server, browser;

before(async () => {
  server = await startServer("bfform");
  browser = await launchBrowser();
  mkdirSync(join(server.project, "blocks"), { recursive: true });
  writeFileSync(join(server.project, "blocks", "src.sql"), "SELECT $dim_region AS region, $partition_key AS cell, 1 AS x\n");
  writeFileSync(join(server.project, "blocks", "agg.sql"), "SELECT count(*) AS n, any_value(region) AS region FROM src\n");
  writeFileSync(join(server.project, "blocks", "weekly.sql"), "SELECT sum(n) AS n FROM agg\n");
  await server.api("PUT", "/pipelines/cells", { yaml: PIPELINE });
  const bf = await server.api("POST", "/backfills", { pipeline: "cells", from: "2024-01-01", to: "2024-01-03" });
  await eventually(async () => (await server.api("GET", `/backfills/${bf.id}`)).state === "succeeded", 60_000, "the first backfill to succeed");
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** The keys a plan would run. */
async function toRun(spec) {
  const plan = await server.api("POST", "/backfills/plan?limit=100", { pipeline: "cells", from: "2024-01-01", to: "2024-01-03", ...spec });
  return plan.partitions.filter((p) => p.action === "run").map((p) => p.key).sort();
}

test("blocks src only × region eu: the plan, the launch and what turns stale", async () => {
  const page = await signedInPage(browser, server, "/backfills?pipeline=cells");
  const form = page.locator('[data-testid="backfill-form"]');
  await form.locator('[data-testid="bf-block-agg"]').waitFor({ timeout: 20_000 });
  await form.locator('[data-testid="bf-from"]').fill("2024-01-01");
  await form.locator('[data-testid="bf-to"]').fill("2024-01-03");
  await form.locator('[data-testid="bf-to"]').press("Tab");
  await form.locator('[data-testid="bf-reprocess"]').selectOption("all");
  await form.locator('[data-testid="bf-block-agg"]').uncheck();
  await form.locator('[data-testid="bf-block-weekly"]').uncheck();
  await eventually(async () => /1 of 3/.test(await form.locator('[data-testid="bf-blocks"] legend').innerText()), 5000, "1 of 3 blocks");
  assert.match(await form.locator('[data-testid="bf-blocks-note"]').innerText(), /agg, weekly keep their versions, which become stale/);
  await form.locator('[data-testid="bf-where-region-us"]').uncheck();
  await form.locator('[data-testid="bf-where-region-apac"]').uncheck();
  await eventually(async () => /region eu/.test(await form.locator('[data-testid="bf-where"] legend').innerText()), 5000, "region eu");

  await form.locator('[data-testid="bf-plan"]').click();
  const plan = page.locator('[data-testid="plan"]');
  await plan.waitFor({ timeout: 20_000 });
  const keys = await plan.locator('[data-testid="plan-partitions"] tbody td.mono').allInnerTexts();
  assert.deepEqual(keys.map((k) => k.trim()), ["2024-01-01|eu", "2024-01-02|eu", "2024-01-03|eu"]);
  assert.match(await plan.locator('[data-testid="plan-products"]').innerText(), /cells__src/);
  assert.doesNotMatch(await plan.locator('[data-testid="plan-products"]').innerText(), /cells__agg|cells__weekly/);
  await screenshot(page, "backfill-form-subset-where");

  await page.locator('[data-testid="bf-launch"]').click();
  await page.waitForURL(/\/backfills\/bf/, { timeout: 20_000 });
  const id = decodeURIComponent(new URL(page.url()).pathname.split("/").pop());
  const st = await eventually(async () => {
    const s = await server.api("GET", `/backfills/${id}`);
    return s.state === "succeeded" ? s : null;
  }, 60_000, "the subset backfill to succeed");
  assert.deepEqual(st.spec.blocks, ["src"]);
  assert.deepEqual(st.spec.where, { region: ["eu"] });
  assert.equal(st.total, 3);
  assert.equal(st.progress.succeeded, 3);

  // src changed in eu's three cells only: agg is stale there, current elsewhere.
  assert.deepEqual(await toRun({ blocks: ["agg"], reprocess: "stale" }), ["2024-01-01|eu", "2024-01-02|eu", "2024-01-03|eu"]);
  // The history line says how it was narrowed.
  await page.goto(server.base + "/backfills");
  await eventually(async () => /where region=eu\b.* · blocks src only/.test(await page.locator('[data-testid="backfill-list"]').innerText()), 20_000, "the narrowed spec in the history");
  await page.context().close();
});
