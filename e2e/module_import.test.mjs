// Go modules in the editor: a cell that imports a module of the project's
// go.mod makes the session build the project kernel (the cell says so),
// then runs interpreted in it and prints what go run prints.

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { ROOT, cell, insertLineAfter, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page;

before(async () => {
  server = await startServer("modules");
  // The project's go.mod requires the corpus modules (as `go get` or
  // `strata mod add` would leave it); `strata mod download` fills the cache.
  for (const f of ["go.mod", "go.sum"]) copyFileSync(join(ROOT, "kernel/testdata/modules", f), join(server.project, f));
  const dl = spawnSync(process.env.STRATA_BIN ?? join(ROOT, "bin/strata"), ["mod", "download", server.project], { encoding: "utf8" });
  assert.equal(dl.status, 0, dl.stderr);
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/pipelines/clv?partition=2024-01-03");
  await cell(page, "raw_orders").locator(".cm-content").waitFor();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test("typing an import of a module builds the project kernel, then the cell runs", { timeout: 400_000 }, async () => {
  await insertLineAfter(page, "raw_orders", '"fmt"', '"github.com/google/uuid"');
  await insertLineAfter(page, "raw_orders", "p := ctx.Partition", 'fmt.Println("order batch", uuid.NewSHA1(uuid.NameSpaceURL, []byte(p.Key)))');
  const c = cell(page, "raw_orders");
  await page.keyboard.press("Control+Enter");
  const out = c.locator('[data-testid="stdout"]');
  await out.filter({ hasText: "building the project kernel: uuid" }).waitFor({ timeout: 60_000 });
  await screenshot(page, "module-kernel-building");
  await c.locator('[data-testid="preview-table"]').waitFor({ timeout: 360_000 });
  // What `go run` of the same call prints.
  assert.match(await out.innerText(), /order batch 4b161897-df59-5663-9cd9-f996cf663b2b/);
  assert.equal(await c.locator('[data-testid="run-error"]').count(), 0);
  await screenshot(page, "module-kernel-ran");
});
