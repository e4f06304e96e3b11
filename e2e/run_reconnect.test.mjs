// A cell run right after the page (re)connects is not taken for a lost one.
//
// After a hello the page waits a moment for the result of an execution that
// ended while it was away, then marks what is still open as lost. That
// sweep once also caught a run the user had just started on the new
// connection when its "busy" status was slow to come back (a loaded
// machine): the cell showed "lost" while the kernel ran it, and the flaky
// "a reload during a run…" of notebook.test.mjs waited for "running" in
// vain. Here the slow link is made on purpose: the websocket is routed
// through the test, which hands the page its hello status only once the
// page has sent the run, and holds the server's answers to the run for a
// few seconds, longer than the page's wait.

import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { cell, insertLineAfter, launchBrowser, screenshot, startServer } from "./harness.mjs";

let server, browser, page;
const HOLD_MS = 4000; // longer than the page's wait for a missed result (1.5 s)

before(async () => {
  server = await startServer("reconnect");
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  page = await context.newPage();
  page.on("pageerror", (e) => console.error("page error:", e.message));
  page.on("dialog", (d) => d.accept());
  await page.routeWebSocket(/\/api\/v1\/ws$/, (route) => {
    const upstream = route.connectToServer();
    let helloStatus; // the answer to the page's hello, held until the page runs a cell
    let holding = false;
    const held = [];
    route.onMessage((m) => {
      upstream.send(m);
      if (!JSON.parse(String(m)).type?.startsWith("execute")) return;
      // The run is on its way: now the page hears its hello status, and the
      // run's own answers come late.
      holding = true;
      if (helloStatus) route.send(helloStatus);
      setTimeout(() => {
        holding = false;
        for (const h of held.splice(0)) route.send(h);
      }, HOLD_MS);
    });
    upstream.onMessage((m) => {
      const msg = JSON.parse(String(m));
      if (msg.type === "status" && msg.id?.startsWith("hello-") && !helloStatus && !holding) {
        helloStatus = m;
        return;
      }
      if (holding) held.push(m);
      else route.send(m);
    });
  });
  await page.goto(server.url);
  await page.goto(server.base + "/pipelines/clv?partition=2024-01-03");
  await cell(page, "raw_orders").locator(".cm-content").waitFor();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test("a run started as the page connects shows running, then its result, never lost", async () => {
  // The run waits for a file the test writes once the cell shows it running.
  const gate = join(mkdtempSync(join(tmpdir(), "strata-e2e-")), "go");
  await insertLineAfter(page, "raw_orders", '"math/rand"', '"os"');
  await insertLineAfter(page, "raw_orders", "p := ctx.Partition",
    `for _, err := os.Stat(${JSON.stringify(gate)}); err != nil; _, err = os.Stat(${JSON.stringify(gate)}) { time.Sleep(20 * time.Millisecond) }`);
  const c = cell(page, "raw_orders");
  await page.keyboard.press("Control+Enter");
  // Before the fix the page marked the run lost 1.5 s after the hello status
  // and ignored the busy status that came after: it never showed running.
  await c.locator('[data-testid="run-status"][data-phase="running"]').waitFor({ timeout: 30_000 }).catch(async (e) => {
    throw new Error(`the cell never showed running; it shows: ${await c.locator('[data-testid="output"]').innerText()}`, { cause: e });
  });
  assert.equal(await c.locator('[data-testid="run-error"]').count(), 0, "no error while it runs");
  await screenshot(page, "run-reconnect-running");
  writeFileSync(gate, "");
  await c.locator('[data-testid="preview-table"]').waitFor({ timeout: 30_000 });
  assert.equal(await c.locator('[data-testid="run-status"]').getAttribute("data-phase"), "done");
});
