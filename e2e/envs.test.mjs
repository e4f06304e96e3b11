// The environment journey: create dev on the Environments page (the tab
// switches to it: a banner and the title say so on every page); a changed
// block is backfilled into dev from the pipeline page's Backfill… dialog
// while prod keeps its versions; dev's diff page shows per product what
// differs and a partition's row diff; a prod write in between makes the
// promote refuse and list the partition; rebuilt there, the promote makes
// dev prod's; back to prod, the banner is gone.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page;

before(async () => {
  server = await startServer("envs");
  const st = await server.api("POST", "/backfills", { pipeline: "clv", from: "2024-01-01", to: "2024-01-03" });
  await eventually(async () => (await server.api("GET", `/backfills/${st.id}`)).state === "succeeded", 60_000, "the prod backfill");
  const b = await server.api("GET", "/pipelines/clv/blocks/daily_customer_metrics");
  const source = b.source.replace("round(sum(amount), 2)", "round(sum(amount), 0)");
  assert.notEqual(source, b.source, "the demo block rounds revenue to 2 digits");
  await server.api("PUT", "/pipelines/clv/blocks/daily_customer_metrics", { source });
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/envs");
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const current = async (day) => (await server.api("GET", "/products/daily_customer_metrics/partitions")).partitions.find((p) => p.key === day).current;

test("create dev: the tab switches to it and every page says so", async () => {
  await page.locator('[data-testid="env-create"] input[name="name"]').fill("dev");
  await page.locator('[data-testid="env-create"] button[type="submit"]').click();
  await page.waitForURL(/\/envs\/dev$/);
  const banner = page.locator('[data-testid="env-banner"]');
  await banner.waitFor();
  assert.match(await banner.innerText(), /Environment dev: .* not prod/);
  assert.equal(await page.locator('[data-testid="env-switch"]').inputValue(), "dev");
  await eventually(async () => (await page.title()).startsWith("[dev] "), 5_000, "the title names dev");
  const envs = await server.api("GET", "/envs");
  assert.deepEqual(
    envs.map((e) => [e.name, e.partitions, e.rows]),
    [["dev", 0, 0]],
    "a new environment holds nothing",
  );
  for (const path of ["/pipelines/clv", "/products", "/backfills", "/runs"]) {
    await page.goto(server.base + path);
    await page.locator('[data-testid="env-banner"]').waitFor({ timeout: 10_000 });
  }
});

test("a backfill from the dialog goes into dev; prod keeps its versions", async () => {
  await page.goto(server.base + "/pipelines/clv?partition=2024-01-02");
  await page.locator('[data-testid="open-backfill"]').click();
  const dialog = page.locator('[data-testid="backfill-dialog"]');
  await dialog.waitFor();
  assert.match(await dialog.locator('[data-testid="bf-into-env"]').innerText(), /into environment dev/);
  await eventually(async () => (await dialog.locator('[data-testid="bf-from"]').inputValue()) !== "", 10_000, "the form's defaults");
  await dialog.locator('[data-testid="bf-from"]').fill("2024-01-01");
  await dialog.locator('[data-testid="bf-to"]').fill("2024-01-03");
  await dialog.locator('[data-testid="bf-to"]').press("Tab");
  await dialog.locator('[data-testid="bf-reprocess"]').selectOption("all");
  let headline = "";
  await eventually(async () => /^3 partitions to run/.test((headline = await dialog.locator('[data-testid="bf-inline-plan"]').innerText().catch(() => ""))), 20_000, "the inline plan").catch((e) => {
    throw new Error(`${e.message}; the plan says: ${headline}`);
  });
  await eventually(async () => !(await dialog.locator('[data-testid="bf-launch"]').isDisabled()), 10_000, "launch enabled");
  assert.match(await dialog.locator('[data-testid="bf-launch"]').innerText(), /into dev/);
  await dialog.locator('[data-testid="bf-launch"]').click();
  await page.waitForURL(/\/backfills\/bf_/);
  assert.ok(headline);
  assert.equal(await page.locator('[data-testid="bf-into"]').innerText(), "into dev", "the backfill page says where it went");
  await eventually(async () => (await page.locator('[data-testid="bf-state"]').innerText()) === "succeeded", 90_000, "the backfill into dev");
  assert.equal(await current("2024-01-02"), 1, "prod's current version did not move");
  const dev = (await server.api("GET", "/envs/dev"));
  assert.ok(dev.partitions > 0, "dev holds what the backfill built");
});

test("dev's diff page: products, checks, a partition's row diff", async () => {
  await page.goto(server.base + "/envs/dev");
  const diff = page.locator('[data-testid="env-diff"]');
  await diff.waitFor({ timeout: 30_000 });
  assert.match(await diff.locator('tr[data-product="daily_customer_metrics"]').innerText(), /daily_customer_metrics\s+3\s+0\s+0/);
  assert.match(await page.locator('[data-testid="env-gates"]').innerText(), /revenue_total/);
  await diff.locator('tr[data-product="daily_customer_metrics"]').click();
  await page.locator('[data-testid="env-partitions"] [data-partition="2024-01-02"]').click();
  const rows = page.locator('[data-testid="env-row-diff"]');
  await rows.waitFor({ timeout: 20_000 });
  assert.match(await rows.innerText(), /\d+ changed, 0 added, 0 removed .* key customer_id/);
  await screenshot(page, "env-diff");
});

test("a prod write after dev was built: the promote is refused and names it", async () => {
  await server.api("POST", "/pipelines/clv/runs?wait=true", { partition: "2024-01-02", engine: "interp" });
  const prodBefore = await current("2024-01-03");
  await page.goto(server.base + "/envs/dev");
  await page.locator('[data-testid="env-promote"]').click();
  await page.locator('[data-testid="env-confirm-yes"]').click();
  const conflicts = page.locator('[data-testid="env-conflicts"]');
  await conflicts.waitFor({ timeout: 30_000 });
  assert.match(await page.locator('[data-testid="env-error"]').innerText(), /nothing was promoted/);
  assert.match(await conflicts.innerText(), /daily_customer_metrics\s+2024-01-02/);
  assert.doesNotMatch(await conflicts.innerText(), /2024-01-03/);
  assert.equal(await current("2024-01-03"), prodBefore, "a refused promote switches nothing");
  await screenshot(page, "env-conflict");
});

test("rebuilt in dev, the promote makes it prod's; back to prod the banner goes", async () => {
  await server.api("POST", "/envs/dev/pipelines/clv/runs?wait=true", { partition: "2024-01-02", engine: "interp" });
  const before3 = await current("2024-01-03");
  await page.goto(server.base + "/envs/dev");
  await page.locator('[data-testid="env-promote"]').click();
  await page.locator('[data-testid="env-confirm-yes"]').click();
  await page.locator('[data-testid="env-done"]').waitFor({ timeout: 30_000 });
  assert.match(await page.locator('[data-testid="env-done"]').innerText(), /Promoted: .*daily_customer_metrics 3 partitions/);
  assert.ok((await current("2024-01-03")) > before3, "prod serves dev's version after the promote");
  await page.locator('[data-testid="env-leave"]').click();
  await eventually(async () => (await page.locator('[data-testid="env-banner"]').count()) === 0, 5_000, "the banner gone in prod");
  assert.equal(await page.locator('[data-testid="env-switch"]').inputValue(), "");
  assert.ok(!(await page.title()).startsWith("["), "the title names no environment");
});

test("the promote is rolled back from dev's page: prod serves what it held before", async () => {
  const promoted = await current("2024-01-03");
  const { last_promote: last } = await server.api("GET", "/envs/dev");
  assert.ok(last?.batch.startsWith("env_dev_"), "dev's last promote is known");
  await page.goto(server.base + "/envs/dev");
  const line = page.locator('[data-testid="env-last-promote"]');
  await line.waitFor({ timeout: 30_000 });
  assert.match(await line.innerText(), new RegExp(`Last promote ${last.batch} .*: ${last.partitions} partitions made prod's`));
  await page.locator('[data-testid="env-rollback"]').click();
  assert.match(await page.locator('[data-testid="env-confirm"]').innerText(), /Put back, in one transaction, what prod held before promote env_dev_/);
  await page.locator('[data-testid="env-confirm-yes"]').click();
  await page.locator('[data-testid="env-done"]').waitFor({ timeout: 30_000 });
  assert.match(await page.locator('[data-testid="env-done"]').innerText(), new RegExp(`Rolled back promote ${last.batch}: ${last.partitions} partitions`));
  assert.ok((await current("2024-01-03")) < promoted, "prod serves its version from before the promote again");
  await eventually(async () => (await line.count()) === 0, 10_000, "no promote left to roll back");
  await screenshot(page, "env-rolled-back");
});

test("an upstream prod rewrote alone after dev read it: the promote is refused and says which", async () => {
  // dev rebuilds 2024-01-03 over prod's raw orders (identical, so not
  // staged); prod then rewrites those raw orders alone.
  await server.api("POST", "/envs/dev/pipelines/clv/runs?wait=true", { partition: "2024-01-03", engine: "interp" });
  const st = await server.api("POST", "/backfills", { pipeline: "clv", from: "2024-01-03", to: "2024-01-03", reprocess: "all", blocks: ["raw_orders"] });
  await eventually(async () => (await server.api("GET", `/backfills/${st.id}`)).state === "succeeded", 60_000, "the prod raw_orders backfill");
  const prodBefore = await current("2024-01-03");
  await page.goto(server.base + "/envs/dev");
  await page.locator('[data-testid="env-promote"]').click();
  await page.locator('[data-testid="env-confirm-yes"]').click();
  const conflicts = page.locator('[data-testid="env-conflicts"]');
  await conflicts.waitFor({ timeout: 30_000 });
  assert.match(await page.locator('[data-testid="env-error"]').innerText(), /nothing was promoted.*computed from \S*raw_orders 2024-01-03/s);
  assert.match(await conflicts.innerText(), /daily_customer_metrics\s+2024-01-03.*read \S*raw_orders 2024-01-03 v\d+, prod now v\d+/s);
  assert.equal(await current("2024-01-03"), prodBefore, "a refused promote switches nothing");
  await screenshot(page, "env-conflict-upstream");
});

test("an editor launches only in an environment; promote stays an operator's", async () => {
  const { token } = await server.api("POST", "/users", { name: "eddie", role: "editor" });
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const epage = await context.newPage();
  await epage.goto(`${server.base}/?token=${token}`);
  await epage.goto(server.base + "/pipelines/clv");
  await epage.locator('[data-testid="env-switch"]').waitFor();
  await eventually(async () => (await epage.evaluate(() => document.documentElement.classList.contains("role-known"))), 10_000, "the role");
  assert.equal(await epage.locator('[data-testid="open-backfill"]').isVisible(), false, "in prod an editor has no Backfill…");
  await epage.locator('[data-testid="env-switch"]').selectOption("dev");
  await epage.locator('[data-testid="env-banner"]').waitFor();
  await eventually(() => epage.locator('[data-testid="open-backfill"]').isVisible(), 10_000, "Backfill… for an editor in dev");
  await epage.goto(server.base + "/envs/dev");
  await epage.locator('[data-testid="env-summary"]').waitFor({ timeout: 30_000 });
  assert.equal(await epage.locator('[data-testid="env-promote"]').isVisible(), false, "an editor cannot promote");
  await context.close();
});
