// Journey: the UI says which engine ran Go blocks. A pipeline run (button)
// says "compiled" (a Go toolchain is installed here) and a run forced to
// the interpreter says "interp"; an editor cell the interpreter cannot run
// (range over a function) runs compiled and its status says
// "compiled: <reason>", while an ordinary cell run carries no tag.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { cell, deleteLine, eventually, insertLineAfter, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page;

before(async () => {
  server = await startServer("engine");
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/pipelines/clv?partition=2024-01-03");
  page.on("dialog", (d) => d.accept());
  await cell(page, "raw_orders").locator(".cm-content").waitFor();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test("a pipeline run shows its engine: compiled by default, interp when forced", async () => {
  await page.getByRole("button", { name: /Run pipeline for 2024-01-03/ }).click();
  const tag = page.locator('[data-testid="run-engine"]');
  await tag.waitFor({ timeout: 120_000 });
  assert.equal((await tag.innerText()).trim(), "compiled");
  await screenshot(page, "engine-run-compiled");

  await server.api("POST", "/pipelines/clv/runs?wait=true", { partition: "2024-01-04", engine: "interp" });
  // The Last run panel is the chosen partition's: choose 2024-01-04.
  await page.goto(server.base + "/pipelines/clv?partition=2024-01-04");
  await eventually(async () => (await page.locator('[data-testid="run-engine"]').innerText()).trim() === "interp", 30_000, "the last run's engine tag to say interp");
  assert.match(await page.locator("h3", { hasText: "Last run" }).innerText(), /2024-01-04/);
});

test("an editor cell the interpreter cannot run says compiled: <reason>", async () => {
  const c = cell(page, "raw_orders");
  await c.locator(".cm-content").waitFor();
  // An ordinary run: interpreted, no engine tag.
  await c.locator('[data-testid="run"]').click();
  await c.locator('[data-testid="preview-table"]').waitFor({ timeout: 60_000 });
  assert.equal(await c.locator('[data-testid="cell-engine"]').count(), 0);

  await insertLineAfter(page, "raw_orders", "p := ctx.Partition", "for v := range func(yield func(int) bool) { yield(3) } { fmt.Println(\"from an iterator\", v) }");
  await page.keyboard.press("Control+Enter");
  const tag = c.locator('[data-testid="cell-engine"]');
  await tag.waitFor({ timeout: 180_000 }); // the first compiled run builds a worker
  assert.match(await tag.innerText(), /^compiled: range over a function/);
  assert.match(await c.locator('[data-testid="stdout"]').innerText(), /from an iterator 3/);
  assert.equal(await c.locator('[data-testid="run-error"]').count(), 0);
  await screenshot(page, "engine-cell-compiled");
  await deleteLine(page, "raw_orders", "from an iterator");
});
