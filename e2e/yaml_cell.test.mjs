// Journey: the pipeline file and strata.yaml in YAML editor cells. The
// server's loader checks the text as it is typed (file, line, field); a save
// with problems is written and reported while the block cells stay; text
// that is not YAML is not written; a stale save is refused (If-Match).

import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { cell, eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page;
const yamlCell = (kind) => page.locator(`[data-testid="yaml-cell-${kind}"]`);
const blockCells = () => page.locator('section.cell[data-block]').count();

before(async () => {
  server = await startServer("yaml");
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/pipelines/clv?partition=2024-01-03");
  await cell(page, "raw_orders").locator(".cm-content").waitFor();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Replaces the end of the first line holding text: deletes n characters, types insert. */
async function editLineEnd(c, text, n, insert) {
  await c.locator(".cm-line", { hasText: text }).first().click();
  await page.keyboard.press("End");
  for (let i = 0; i < n; i++) await page.keyboard.press("Backspace");
  await page.keyboard.insertText(insert);
}

test("the pipeline file in a YAML cell: live diagnostics, a save with problems keeps the cells", async () => {
  const file = join(server.project, "pipelines/clv.yaml");
  const onDisk = readFileSync(file, "utf8");
  const cells = await blockCells();
  assert.equal(cells, 7);
  await page.locator('[data-testid="open-yaml-pipeline"]').click();
  const y = yamlCell("pipeline");
  await y.locator(".cm-content").waitFor();
  assert.match(await y.locator(".cm-content").innerText(), /interval: day/);
  await editLineEnd(y, "interval: day", 3, "fortnight");
  // Checked as typed, nothing written yet.
  const probs = y.locator('[data-testid="yaml-problems"]');
  await eventually(async () => (await probs.count()) && /pipelines\/clv\.yaml:4:\d+ partitions\.interval: .*fortnight/.test(await probs.innerText()), 15_000, "the live problem at line 4");
  assert.equal(readFileSync(file, "utf8"), onDisk);
  await y.locator(".cm-content").click();
  await page.keyboard.press("Control+s");
  await eventually(async () => /saved, \d problem/.test(await y.locator('[data-testid="yaml-status"]').innerText()), 15_000, "saved with problems");
  assert.match(readFileSync(file, "utf8"), /interval: fortnight/);
  // The pipeline page lists the problem at file:line and field; every block cell is still there and editable.
  await page.locator('[data-testid="pipeline-problems"]').waitFor();
  assert.match(await page.locator('[data-testid="pipeline-problems"]').innerText(), /pipelines\/clv\.yaml:4 partitions\.interval/);
  assert.equal(await blockCells(), cells);
  assert.equal(await cell(page, "clv").locator(".cm-content").getAttribute("contenteditable"), "true");
  await screenshot(page, "yaml-pipeline-problem");
  // Not YAML at all: shown as typed, refused on save, nothing written.
  await editLineEnd(y, "interval: fortnight", 9, "[day");
  await eventually(async () => /YAML syntax error/.test(await probs.innerText()), 15_000, "the syntax error");
  await page.keyboard.press("Control+s");
  await eventually(async () => /does not parse as YAML/.test(await y.locator('[data-testid="yaml-status"]').innerText()), 15_000, "the refused save");
  assert.match(readFileSync(file, "utf8"), /interval: fortnight/);
  assert.equal(await blockCells(), cells);
  // Fixed: saved, no problems.
  await editLineEnd(y, "interval: [day", 4, "day");
  await page.keyboard.press("Control+s");
  await eventually(async () => (await y.locator('[data-testid="yaml-status"]').innerText()) === "saved", 15_000, "a clean save");
  await eventually(async () => (await page.locator('[data-testid="pipeline-problems"]').count()) === 0, 15_000, "the problems to clear");
  assert.equal(readFileSync(file, "utf8"), onDisk);
});

test("a stale save of the pipeline file is refused with changed elsewhere", async () => {
  const file = join(server.project, "pipelines/clv.yaml");
  const y = yamlCell("pipeline");
  await editLineEnd(y, "concurrency: 4", 1, "3");
  // Meanwhile another editor writes the file.
  writeFileSync(file, readFileSync(file, "utf8").replace("timeout: 30s", "timeout: 40s"));
  await y.locator('[data-testid="yaml-save"]').click();
  await y.locator('[data-testid="yaml-conflict"]').waitFor({ timeout: 15_000 });
  assert.match(readFileSync(file, "utf8"), /concurrency: 4/);
  await y.getByRole("button", { name: "Overwrite with mine" }).click();
  await eventually(async () => (await y.locator('[data-testid="yaml-status"]').innerText()) === "saved", 15_000, "the overwrite");
  assert.match(readFileSync(file, "utf8"), /concurrency: 3/);
});

test("strata.yaml in a YAML cell, with the loader's field and line", async () => {
  await page.locator('[data-testid="open-yaml-settings"]').click();
  const y = yamlCell("settings");
  await y.locator(".cm-content").waitFor();
  await editLineEnd(y, "retention: 3", 1 + "            # versions kept per product partition, for preview and rollback".length, "0");
  const probs = y.locator('[data-testid="yaml-problems"]');
  await eventually(async () => (await probs.count()) && /strata\.yaml:4:\d+ retention: retention 0 keeps no version/.test(await probs.innerText()), 15_000, "the retention problem");
  await page.keyboard.press("Control+s");
  await eventually(async () => /saved, 1 problem/.test(await y.locator('[data-testid="yaml-status"]').innerText()), 15_000, "saved with the problem");
  assert.match(readFileSync(join(server.project, "strata.yaml"), "utf8"), /retention: 0/);
  assert.equal(await blockCells(), 7);
  await editLineEnd(y, "retention: 0", 1, "3");
  await page.keyboard.press("Control+s");
  await eventually(async () => (await y.locator('[data-testid="yaml-status"]').innerText()) === "saved", 15_000, "a clean save");
  await screenshot(page, "yaml-settings");
});
