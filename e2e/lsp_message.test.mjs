// gopls's pop-up messages (window/showMessage: a warning or an error) show
// at the top of the Go cell being edited, not of the first Go cell on the
// page. The page talks to the real server and its gopls; the test forwards
// that websocket as it is and adds one warning from the server's side, at
// a moment it picks (gopls sends its own only when a workspace breaks).

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { cell, eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page;
const sockets = [];

before(async () => {
  server = await startServer("lsp-message");
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/");
  await page.routeWebSocket(/\/api\/v1\/lsp$/, (ws) => {
    ws.connectToServer(); // everything passes both ways, untouched
    sockets.push(ws);
  });
  await page.goto(server.base + "/pipelines/clv?partition=2024-01-03");
  await cell(page, "raw_orders").locator(".cm-content").waitFor();
  await cell(page, "clv").locator(".cm-content").waitFor();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test("a message of the language server shows in the Go cell being edited", async () => {
  // raw_orders is the first Go cell; clv comes after it.
  const order = await page.locator('[data-testid^="cell-"]').evaluateAll((els) => els.map((e) => e.dataset.testid));
  assert.ok(order.indexOf("cell-raw_orders") < order.indexOf("cell-clv"), `cells in order: ${order.join(", ")}`);
  const clv = cell(page, "clv");
  await clv.locator(".cm-line").first().click();
  await page.keyboard.press("End");
  await page.keyboard.type(" ", { delay: 20 });
  await eventually(async () => sockets.length > 0, 30_000, "the language server's websocket");
  sockets.at(-1).send(JSON.stringify({ jsonrpc: "2.0", method: "window/showMessage", params: { type: 2, message: "gopls: e2e warning for the edited cell" } }));
  const note = page.locator(".cm-lsp-message", { hasText: "e2e warning for the edited cell" });
  await note.waitFor({ timeout: 15_000 });
  await screenshot(page, "lsp-message-in-edited-cell");
  assert.equal(await clv.locator(".cm-lsp-message").count(), 1, "the message is in the edited cell");
  assert.equal(await cell(page, "raw_orders").locator(".cm-lsp-message").count(), 0, "not in the first Go cell");
});
