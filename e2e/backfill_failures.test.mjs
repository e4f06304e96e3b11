// A backfill's failures grouped by error on its page: two causes over four
// days read as two groups (the day in the message does not split them),
// each with its partitions; once one cause is fixed, that group alone is
// retried (after a confirmation that says so) and the other stays failed.

import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page, file, original, id;

function fail(body) {
  writeFileSync(file, original.replace("\tp := ctx.Partition\n", body + "\tp := ctx.Partition\n"));
}

before(async () => {
  server = await startServer("backfill-failures");
  file = join(server.project, "blocks", "raw_orders", "raw_orders.go");
  original = readFileSync(file, "utf8");
  fail(`\tswitch ctx.Partition.Key {
\tcase "2024-03-04", "2024-03-05", "2024-03-07":
\t\treturn nil, fmt.Errorf("source offline for %s: 503 after 3 tries", ctx.Partition.Key)
\tcase "2024-03-06":
\t\treturn nil, fmt.Errorf("bad row 17: amount %q is not a number", "n/a")
\t}
`);
  // The server watches the files: the backfill runs the failing code.
  await eventually(async () => (await server.api("GET", "/pipelines/clv/blocks/raw_orders")).source.includes("source offline"), 20_000, "the edit seen");
  id = (await server.api("POST", "/backfills", { pipeline: "clv", from: "2024-03-03", to: "2024-03-08", concurrency: 2 })).id;
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/backfills/" + id);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test("the failures read as two groups with their partitions", async () => {
  await eventually(async () => (await page.locator('[data-testid="bf-state"]').innerText()) === "failed", 120_000, "the backfill failed");
  const groups = page.locator('[data-testid="failure-group"]');
  await eventually(async () => (await groups.count()) === 2, 20_000, "two groups");
  const first = await groups.nth(0).innerText();
  assert.match(first, /3 failed/);
  assert.match(first, /raw_orders/);
  assert.match(first, /source offline for <time>: <n> after <n> tries/);
  assert.equal(await groups.nth(0).locator('[data-testid="failure-keys"]').innerText(), "2024-03-04, 2024-03-05, 2024-03-07");
  assert.match(await groups.nth(1).innerText(), /1 failed[\s\S]*bad row <n>: amount <value> is not a number[\s\S]*2024-03-06/);
  await screenshot(page, "backfill-failure-groups");
});

test("one group is retried with the current code; the other stays failed", async () => {
  fail(`\tif ctx.Partition.Key == "2024-03-06" {
\t\treturn nil, fmt.Errorf("bad row 17: amount %q is not a number", "n/a")
\t}
`);
  await eventually(async () => !(await server.api("GET", "/pipelines/clv/blocks/raw_orders")).source.includes("source offline"), 20_000, "the fix seen");
  await page.reload();
  const groups = page.locator('[data-testid="failure-group"]');
  await eventually(async () => (await groups.count()) === 2, 20_000, "two groups after the reload");
  await groups.nth(0).locator('[data-testid="failure-retry-current"]').click();
  const ask = groups.nth(0).locator('[data-testid="failure-retry-confirm"]');
  assert.match(await ask.innerText(), /Retry these 3 partitions with the current code\? The other failures stay as they are\./);
  await ask.locator('[data-testid="failure-retry-yes"]').click();
  await eventually(async () => {
    const { partitions } = await server.api("GET", `/backfills/${id}/partitions?limit=100`);
    const s = Object.fromEntries(partitions.map((p) => [p.key, p.state]));
    return s["2024-03-04"] === "succeeded" && s["2024-03-05"] === "succeeded" && s["2024-03-07"] === "succeeded";
  }, 120_000, "the group's partitions succeeded");
  await eventually(async () => (await page.locator('[data-testid="bf-state"]').innerText()) === "failed", 60_000, "the backfill ends failed: one failure is left");
  await eventually(async () => (await groups.count()) === 1, 20_000, "one group left");
  assert.match(await groups.nth(0).innerText(), /bad row <n>[\s\S]*2024-03-06/);
  const { partitions } = await server.api("GET", `/backfills/${id}/partitions?limit=100`);
  const six = partitions.find((p) => p.key === "2024-03-06");
  assert.ok(!six.run_id.includes("~"), `2024-03-06 was not run again: ${six.run_id}`);
  await screenshot(page, "backfill-failure-group-retried");
});

test("a partition failed twice keeps both attempts, each with its error and run", async () => {
  const groups = page.locator('[data-testid="failure-group"]');
  await groups.nth(0).locator('[data-testid="failure-retry"]').click();
  await groups.nth(0).locator('[data-testid="failure-retry-yes"]').click();
  await eventually(async () => {
    const runs = (await server.api("GET", `/runs?backfill=${id}&partition=2024-03-06`)).runs;
    return runs.length === 2 && runs.every((r) => r.state === "failed");
  }, 120_000, "a second failed attempt at 2024-03-06");
  await eventually(async () => (await page.locator('[data-testid="bf-state"]').innerText()) === "failed", 60_000, "the backfill ends failed again");
  // The failed key opens the partition: every attempt, with its error and a link to its run.
  await eventually(async () => (await groups.locator('[data-testid="failure-key"][data-key="2024-03-06"]').count()) === 1, 20_000, "the failed key listed");
  await groups.locator('[data-testid="failure-key"][data-key="2024-03-06"]').click();
  const rows = page.locator('[data-testid="partition-drawer"] [data-testid="bf-attempt"]');
  await eventually(async () => (await rows.count()) === 2, 20_000, "two attempts in the drawer");
  const texts = await rows.allInnerTexts();
  for (const [i, t] of texts.entries()) {
    assert.match(t, new RegExp(`^${i + 1}\\s+failed`), t);
    assert.match(t, /bad row 17: amount "n\/a" is not a number/, t);
  }
  const hrefs = await rows.locator('[data-testid="bf-attempt-run"]').evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  assert.equal(new Set(hrefs).size, 2, `two different runs: ${hrefs}`);
  await screenshot(page, "backfill-attempts");
});
