// Go cells complete from the project's gopls, bridged over /api/v1/lsp:
// typing `ctx.Partition.` in a block offers the SDK's Partition fields.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { cell, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page;

before(async () => {
  server = await startServer("completion");
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/pipelines/clv?partition=2024-01-03");
  page.on("dialog", (d) => d.accept());
  await cell(page, "raw_orders").locator(".cm-content").waitFor();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test("typing in a Go cell shows completions from gopls", async () => {
  const c = cell(page, "raw_orders");
  await c.locator(".cm-line", { hasText: "p := ctx.Partition" }).first().click();
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  // Go cells indent with a tab, as gofmt does.
  const indent = await c.locator(".cm-content").evaluate((el) => {
    const lines = [...el.querySelectorAll(".cm-line")];
    const i = lines.findIndex((l) => l.textContent.includes("p := ctx.Partition"));
    return lines[i + 1].textContent;
  });
  assert.equal(indent, "\t");
  await page.keyboard.type("_ = ctx.Partition.St", { delay: 20 });
  const menu = page.locator(".cm-tooltip-autocomplete");
  await menu.waitFor({ timeout: 30_000 });
  await menu.locator("li", { hasText: "Start" }).first().waitFor({ timeout: 30_000 });
  await screenshot(page, "go-completion");
  // The type detail comes only from gopls (the editor's own completion knows no fields).
  const items = await menu.locator("li").allInnerTexts();
  assert.ok(items.some((t) => t.includes("Start") && t.includes("time.Time")), `completion items: ${items.join(" | ")}`);
  // gopls's info messages ("Finished loading packages.") do not pop up in the editor.
  assert.equal(await page.locator(".cm-lsp-message, .cm-panel", { hasText: /loading packages/i }).count(), 0);
});
