// A Markdown cell after the last block: the notebook's closing text, kept as
// end_note at the end of the pipeline file, rendered below the last cell,
// edited and removed in place.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { cell, eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page;

before(async () => {
  server = await startServer("endnote");
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/pipelines/clv?partition=2024-01-03");
  page.on("dialog", (d) => d.accept());
  await cell(page, "raw_orders").locator(".cm-content").waitFor();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const yaml = () => readFileSync(join(server.project, "pipelines/clv.yaml"), "utf8");

test("+ Markdown after the last block writes end_note and shows it below the last cell", async () => {
  const before = yaml();
  const bar = page.locator('[data-testid="insert-end"]');
  await bar.locator('[data-testid="insert-md"]').click();
  const note = page.locator('[data-testid="note-end"]');
  await note.locator("textarea").fill("## What to check next\n\n- the **weekly** rollup\n- `segment_report` by hand");
  await page.keyboard.press("Control+Enter");
  await note.locator('[data-testid="note-rendered"] h3').waitFor({ timeout: 10_000 });
  assert.equal(await note.locator('[data-testid="note-rendered"] h3').innerText(), "What to check next");
  assert.equal(await note.locator('[data-testid="note-rendered"] li').count(), 2);
  // The file: what it was, then the note at its end.
  assert.equal(yaml(), before + "end_note: |-\n  ## What to check next\n\n  - the **weekly** rollup\n  - `segment_report` by hand\n");
  // It sits after every cell of the notebook, and the bar offers no second one.
  const order = await page.locator("section.cell[data-block], [data-testid=note-end]").evaluateAll((els) => els.map((e) => e.dataset.block ?? e.dataset.testid));
  assert.equal(order.at(-1), "note-end", order.join(" "));
  assert.equal(await bar.locator('[data-testid="insert-md"]').count(), 0);
  await screenshot(page, "end-note");
});

test("the end note survives a reload, is edited in place and deleted", async () => {
  await page.reload();
  const note = page.locator('[data-testid="note-end"]');
  await note.locator('[data-testid="note-rendered"] h3').waitFor({ timeout: 15_000 });
  await note.locator('[data-testid="note-edit"]').click();
  await note.locator("textarea").fill("Done: see the run page.");
  await note.locator('[data-testid="note-save"]').click();
  await eventually(async () => (await note.locator('[data-testid="note-rendered"]').innerText()).trim() === "Done: see the run page.", 10_000, "the edited note");
  assert.match(yaml(), /\nend_note: 'Done: see the run page\.'\n$/);
  await note.locator('[data-testid="note-delete"]').click();
  await eventually(async () => (await page.locator('[data-testid="note-end"]').count()) === 0, 10_000, "the note to go");
  assert.doesNotMatch(yaml(), /end_note/);
  await page.locator('[data-testid="insert-end"] [data-testid="insert-md"]').waitFor();
});
