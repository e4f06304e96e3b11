// Completing a package the cell does not import adds its import line, as
// gopls's completion offers it (additionalTextEdits): a std package
// (strings) and a third-party module of the project's go.mod (uuid).

import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { ROOT, cell, eventually, launchBrowser, screenshot, startServer } from "./harness.mjs";

let server, browser, page;
/** gopls's completion answers waiting to reach the page (null: they pass). */
let held = null;

function release() {
  const h = held ?? [];
  held = null;
  for (const send of h) send();
}

before(async () => {
  server = await startServer("completion-import");
  for (const f of ["go.mod", "go.sum"]) copyFileSync(join(ROOT, "kernel/testdata/modules", f), join(server.project, f));
  const dl = spawnSync(process.env.STRATA_BIN ?? join(ROOT, "bin/strata"), ["mod", "download", server.project], { encoding: "utf8" });
  assert.equal(dl.status, 0, dl.stderr);
  browser = await launchBrowser();
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  page = await context.newPage();
  page.on("pageerror", (e) => console.error("page error:", e.message));
  // The editor's gopls socket passes through here, so a test can hold
  // gopls's completion answers (a slow gopls on a loaded machine).
  await page.routeWebSocket(/\/api\/v1\/lsp$/, (route) => {
    const upstream = route.connectToServer();
    const completions = new Set();
    route.onMessage((m) => {
      const msg = JSON.parse(String(m));
      if (msg.method === "textDocument/completion") completions.add(msg.id);
      upstream.send(m);
    });
    upstream.onMessage((m) => {
      const msg = JSON.parse(String(m));
      if (held && msg.method === undefined && completions.has(msg.id)) held.push(() => route.send(m));
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

const text = () => cell(page, "raw_orders").locator(".cm-content").evaluate((el) => [...el.querySelectorAll(".cm-line")].map((l) => l.textContent).join("\n"));

/** The completion list the editor acts on: CodeMirror greys the list out (-disabled) while a newer request is out, and ignores a click on it. */
const liveItem = (label) => page.locator(".cm-tooltip-autocomplete:not(.cm-tooltip-autocomplete-disabled) li", { hasText: label }).first();

// Types `typed` after `p := ctx.Partition` and picks `label`. The last two
// keystrokes' answer is held, so the list on screen is then gopls's answer
// for the text before them, greyed out: the window that a loaded machine
// opened at random, in which a click on the stale item did nothing (the
// cell kept "strings.ToUpp", no import; this test failed so once under load 48).
async function complete(typed, label) {
  const c = cell(page, "raw_orders");
  await c.locator(".cm-line", { hasText: "p := ctx.Partition" }).first().click();
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await page.keyboard.type(typed.slice(0, -2), { delay: 30 });
  await liveItem(label).waitFor({ timeout: 60_000 });
  held = [];
  await page.keyboard.type(typed.slice(-2), { delay: 30 });
  await page.locator(".cm-tooltip-autocomplete-disabled li", { hasText: label }).first().waitFor({ timeout: 60_000 });
  const releaser = setTimeout(release, 1000); // gopls answers late, not never
  try {
    await liveItem(label).click({ timeout: 60_000 });
  } finally {
    clearTimeout(releaser);
    release();
  }
}

test("a std package: completing strings.ToUpper adds import \"strings\"", async () => {
  assert.ok(!(await text()).includes('"strings"'));
  await complete("_ = strings.ToUpp", "ToUpper");
  // On a miss, the cell's text and a screenshot say what the click did.
  await eventually(async () => (await text()).includes('"strings"'), 10_000, "the import added").catch(async (e) => {
    await screenshot(page, "completion-import-std-missed");
    throw new Error(`${e.message}; the cell reads:\n${await text()}`);
  });
  const t = await text();
  assert.match(t, /import \([\s\S]*\t"strings"[\s\S]*\)/, "inside the import block");
  assert.match(t, /_ = strings\.ToUpper\(/, "and the call completed");
  await screenshot(page, "completion-import-std");
});

test("a module of go.mod: completing uuid.NewSHA1 adds its import path", async () => {
  await complete("_ = uuid.NewSH", "NewSHA1");
  await eventually(async () => (await text()).includes('"github.com/google/uuid"'), 10_000, "the module's import added");
  assert.match(await text(), /_ = uuid\.NewSHA1\(/);
});
