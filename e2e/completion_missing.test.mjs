// Without gopls the Go cells still edit and run; the page says once how to
// install it (GET /api/v1/lsp answers 503 with the command).

import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, test } from "node:test";
import { cell, launchBrowser, signedInPage, startServer } from "./harness.mjs";

let server, browser, page;

before(async () => {
  // The server looks for gopls on PATH and in GOPATH/bin: hide both (keep node's own folder).
  const saved = { PATH: process.env.PATH, GOPATH: process.env.GOPATH };
  process.env.PATH = dirname(process.execPath);
  process.env.GOPATH = mkdtempSync(join(tmpdir(), "strata-nogopls-"));
  try {
    server = await startServer("nogopls");
  } finally {
    process.env.PATH = saved.PATH;
    if (saved.GOPATH === undefined) delete process.env.GOPATH;
    else process.env.GOPATH = saved.GOPATH;
  }
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/pipelines/clv?partition=2024-01-03");
  await cell(page, "raw_orders").locator(".cm-content").waitFor();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test("without gopls the page shows the install command once and the editor still works", async () => {
  const note = page.locator(".lsp-missing");
  await note.waitFor({ timeout: 15_000 });
  assert.match(await note.innerText(), /go install golang\.org\/x\/tools\/gopls@v0\.23\.0/);
  assert.equal(await note.count(), 1, "one note for all Go cells");
  const c = cell(page, "raw_orders");
  await c.locator(".cm-line", { hasText: "p := ctx.Partition" }).first().click();
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await page.keyboard.type("_ = p", { delay: 10 });
  await c.locator('[data-testid="dirty"]').waitFor();
  assert.ok((await c.locator(".cm-content").innerText()).includes("_ = p"));
});
