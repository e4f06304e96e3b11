// The trigger panel of the pipeline page: a trigger added to the pipeline
// file on disk shows up with its next ticks in the trigger's zone and UTC;
// pause and resume from the panel reach the server (and persist).

import assert from "node:assert/strict";
import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page;

before(async () => {
  server = await startServer("triggers");
  appendFileSync(
    join(server.project, "pipelines", "clv.yaml"),
    `triggers:\n  - id: nightly\n    schedule: {cron: "30 2 * * *", timezone: America/New_York}\n    run: latest-complete\n    catch_up: {max: 3}\n  - id: external\n    api: true\n`,
  );
  await eventually(async () => (await server.api("GET", "/pipelines/clv/triggers")).triggers.length === 2, 20_000, "the server to reload the pipeline file");
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/pipelines/clv");
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test("the panel shows the next ticks of a schedule in its zone and UTC", async () => {
  const nightly = page.locator('[data-testid="trigger-nightly"]');
  await nightly.waitFor({ timeout: 20_000 });
  const rows = nightly.locator('[data-testid="trigger-next"] tbody tr');
  await eventually(async () => (await rows.count()) === 3, 10_000, "three next ticks");
  const first = await rows.first().innerText();
  assert.match(first, /02:30 E[SD]T/, "the tick in New York wall time");
  assert.match(first, /0[67]:30Z/, "and in UTC");
  assert.match(first, /\d{4}-\d{2}-\d{2}/, "with the partition it runs");
  assert.equal(await nightly.locator('[data-testid="trigger-state"]').innerText(), "active");
  assert.match(await page.locator('[data-testid="trigger-external"]').innerText(), /API calls only/);
  await screenshot(page, "trigger-panel");
});

test("pause and resume from the panel", async () => {
  const nightly = page.locator('[data-testid="trigger-nightly"]');
  await nightly.locator('[data-testid="trigger-pause"]').click();
  await eventually(async () => (await nightly.locator('[data-testid="trigger-state"]').innerText()) === "paused", 10_000, "paused in the panel");
  const st = await server.api("GET", "/pipelines/clv/triggers/nightly");
  assert.equal(st.paused, true, "paused on the server");
  await page.reload();
  await nightly.waitFor({ timeout: 20_000 });
  await eventually(async () => (await nightly.locator('[data-testid="trigger-state"]').innerText()) === "paused", 10_000, "still paused after a reload");
  assert.equal(await nightly.locator('[data-testid="trigger-pause"]').innerText(), "Resume");
  // A paused trigger does not list its next ticks as though they will run.
  assert.equal(await nightly.locator('[data-testid="trigger-next"]').count(), 0, "no next-tick table while paused");
  assert.match(await nightly.locator('[data-testid="trigger-paused-note"]').innerText(), /Paused: no tick runs until Resume/);
  await screenshot(page, "trigger-paused");
  await nightly.locator('[data-testid="trigger-pause"]').click();
  await eventually(async () => (await nightly.locator('[data-testid="trigger-state"]').innerText()) === "active", 10_000, "active again");
  await nightly.locator('[data-testid="trigger-next"]').waitFor({ timeout: 10_000 });
  assert.equal((await server.api("GET", "/pipelines/clv/triggers/nightly")).paused, false);
});
