// The backfill page of a day × region × customer pipeline sliced by one
// dimension (a calendar per region) and filtered by the others; the
// Backfill… dialog's where-fields narrow the plan and the launch as
// --where does, @new included.

import assert from "node:assert/strict";
import { writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

const CUSTOMERS = `blocks:
  - id: list
    product: dim_customers
`;

const ORDERS = `partitions:
  interval: day
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: region
      values: [us, eu, apac]
    - name: customer
      from: {product: dim_customers, column: id}
blocks:
  - id: line
`;

let server, browser, bf;

const customers = (ids) => writeFileSync(join(server.project, "blocks", "list.sql"), `SELECT unnest([${ids.map((i) => `'${i}'`).join(", ")}]) AS id\n`);

before(async () => {
  server = await startServer("cells-slice");
  browser = await launchBrowser();
  mkdirSync(join(server.project, "blocks"), { recursive: true });
  customers(["c1", "c2"]);
  writeFileSync(join(server.project, "blocks", "line.sql"), "SELECT $dim_region AS region, $dim_customer AS customer, $partition_key AS cell\n");
  await server.api("PUT", "/pipelines/customers", { yaml: CUSTOMERS });
  await server.api("PUT", "/pipelines/orders", { yaml: ORDERS });
  const run = await server.api("POST", "/pipelines/customers/runs?wait=true", {});
  assert.equal(run.state, "succeeded", JSON.stringify(run));
  bf = await server.api("POST", "/backfills", { pipeline: "orders", from: "2024-01-01", to: "2024-01-03" });
  await eventually(async () => (await server.api("GET", `/backfills/${bf.id}`)).state === "succeeded", 90_000, "the backfill to succeed");
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test("the backfill grid sliced by region: a calendar per region, filtered by customer", async () => {
  const page = await signedInPage(browser, server, `/backfills/${bf.id}`);
  const slice = page.locator('[data-testid="dim-slice"]');
  await slice.waitFor({ timeout: 20_000 });
  await eventually(async () => /succeeded 18/.test(await page.locator(".legend").innerText()), 20_000, "18 cells in the legend");
  await slice.selectOption("region");
  const rows = page.locator('[data-testid="slice-row"]');
  await eventually(async () => (await rows.count()) === 3, 10_000, "a row per region");
  assert.deepEqual(await rows.evaluateAll((els) => els.map((e) => e.dataset.value)), ["us", "eu", "apac"]);
  assert.equal(await page.locator('[data-testid="dim-filter-region"]').count(), 0, "the sliced dimension has no filter");
  const counts = () => page.locator('[data-testid="slice-count"]').allInnerTexts();
  assert.deepEqual(await counts(), ["6 cells", "6 cells", "6 cells"]);
  // Each region's days as a calendar.
  assert.equal(await page.locator('[data-testid="slice-calendar-eu"] canvas').count(), 1);
  await page.locator('[data-testid="dim-filter-customer"]').selectOption("c1");
  await eventually(async () => (await counts()).join() === "3 cells,3 cells,3 cells", 10_000, "the customer filter to leave 3 cells a region");
  // A day of eu's calendar opens eu's cell of that day for the filtered customer.
  const at = await page.locator('[data-testid="slice-calendar-eu"]').evaluate((el) => {
    const c = el.calendar.cellCenter("2024-01-02");
    const r = el.querySelector("canvas").getBoundingClientRect();
    return c && { x: r.left + c.x, y: r.top + c.y };
  });
  assert.ok(at, "2024-01-02 is on eu's calendar");
  await page.mouse.click(at.x, at.y);
  await eventually(async () => (await page.locator('[data-testid="partition-drawer"] h2').innerText().catch(() => "")) === "2024-01-02|eu|c1", 10_000, "the drawer on 2024-01-02|eu|c1");
  await screenshot(page, "cells-slice");
  await slice.selectOption("");
  await eventually(async () => (await rows.count()) === 0, 10_000, "the slices to go");
  await page.context().close();
});

test("the Backfill dialog's where-fields narrow the plan and the launch, @new included", async () => {
  customers(["c1", "c2", "c3"]);
  const run = await server.api("POST", "/pipelines/customers/runs?wait=true", {});
  assert.equal(run.state, "succeeded", JSON.stringify(run));
  const page = await signedInPage(browser, server, "/pipelines/orders");
  await page.locator('[data-testid="open-backfill"]').click();
  const dialog = page.locator('[data-testid="backfill-dialog"]');
  await dialog.waitFor({ timeout: 20_000 });
  await dialog.locator('[data-testid="bf-from"]').fill("2024-01-01");
  await dialog.locator('[data-testid="bf-to"]').fill("2024-01-03");
  await dialog.locator('[data-testid="bf-to"]').press("Tab");
  await dialog.locator('[data-testid="bf-publish"]').selectOption("partition");
  const headline = () => dialog.locator('[data-testid="plan-headline"]').innerText().catch(() => "");
  const planned = async (re, what) => eventually(async () => re.test(await headline()) && !(await dialog.locator('[data-testid="bf-launch"]').isDisabled()), 30_000, what);
  // Missing cells of the whole box: c3's 9.
  await planned(/^9 partitions to run, 18 to skip of 27/, "the plan of every cell");
  const region = dialog.locator('[data-testid="bf-where-region"]');
  await region.fill("eu, us");
  await region.press("Tab");
  await planned(/^6 partitions to run, 12 to skip of 18/, "the plan of eu and us");
  // A static dimension's unknown value is refused beside its field.
  await region.fill("mars");
  await region.press("Tab");
  await eventually(async () => /not a value of region: its values: us, eu, apac/.test(await dialog.locator('[data-testid="bf-where-error-region"]').innerText().catch(() => "")), 10_000, "mars refused");
  assert.ok(await dialog.locator('[data-testid="bf-launch"]').isDisabled(), "no launch with a bad where");
  await region.fill("eu");
  await region.press("Tab");
  const customer = dialog.locator('[data-testid="bf-where-customer"]');
  await customer.fill("@new");
  await customer.press("Tab");
  await dialog.locator('[data-testid="bf-reprocess"]').selectOption("all");
  await planned(/^3 partitions to run, 0 to skip of 3/, "the plan of eu's new customer");
  await screenshot(page, "cells-where-dialog");
  await dialog.locator('[data-testid="bf-launch"]').click();
  await page.waitForURL(/\/backfills\/bf_/, { timeout: 30_000 });
  const id = decodeURIComponent(page.url().split("/backfills/")[1].split(/[?#]/)[0]);
  await eventually(async () => (await server.api("GET", `/backfills/${id}`)).state === "succeeded", 90_000, "the where backfill");
  const st = await server.api("GET", `/backfills/${id}`);
  assert.deepEqual(st.spec.where, { region: ["eu"], customer: ["@new"] });
  assert.equal(st.total, 3);
  const parts = await server.api("GET", `/backfills/${id}/partitions?limit=100`);
  assert.deepEqual(parts.partitions.map((p) => p.key).sort(), ["2024-01-01|eu|c3", "2024-01-02|eu|c3", "2024-01-03|eu|c3"]);
  assert.match(await page.locator(".page-head").innerText(), /where region=eu · where customer=@new|where customer=@new · where region=eu/);
  await page.context().close();
});
