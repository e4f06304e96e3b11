// Jupyter's command mode on the pipeline page, by keyboard only: Esc leaves
// a cell's editor and selects the cell; ↓ selects the next; B adds a block
// below (the add form opens there, upstream preselected); Alt+↓ moves it;
// A opens the form above; D D removes a block only after the confirmation
// that lists what it removes (dismissed first: nothing removed).

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { cell, eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page;

before(async () => {
  server = await startServer("cell-keys");
  browser = await launchBrowser();
  page = await signedInPage(browser, server, "/pipelines/clv");
  await cell(page, "raw_orders").locator(".cm-content").waitFor({ timeout: 30_000 });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const selected = () => page.evaluate(() => document.activeElement?.getAttribute("data-block") ?? "");
const order = async () => (await server.api("GET", "/pipelines/clv")).order;

test("Esc selects the cell, arrows move the selection, B adds a block below", async () => {
  await cell(page, "raw_orders").locator(".cm-content").click();
  await page.keyboard.press("Escape");
  await eventually(async () => (await selected()) === "raw_orders", 5_000, "raw_orders selected");
  await page.keyboard.press("ArrowDown");
  await eventually(async () => (await selected()) === "daily_customer_metrics", 5_000, "the next cell selected");
  await page.keyboard.press("b");
  const form = page.locator('[data-testid="insert-form"]');
  await form.waitFor({ timeout: 5_000 });
  assert.match(await form.innerText(), /New Go block above clv/, "the form opens below the selected cell");
  assert.equal(await form.locator('input[name="up-daily_customer_metrics"]').isChecked(), true, "reading the selected cell");
  await eventually(async () => page.evaluate(() => document.activeElement?.getAttribute("name") === "id"), 5_000, "the id field focused");
  await page.keyboard.type("kb_probe");
  await page.keyboard.press("Enter");
  await eventually(async () => (await order()).includes("kb_probe"), 15_000, "the block created");
  const o = await order();
  assert.equal(o.indexOf("kb_probe"), o.indexOf("daily_customer_metrics") + 1, `below daily_customer_metrics: ${o}`);
  await cell(page, "kb_probe").locator(".cm-content").waitFor({ timeout: 10_000 });
  await screenshot(page, "cell-keys-added");
});

test("Alt+↓ moves the selected block, A opens the form above it", async () => {
  await cell(page, "kb_probe").locator(".cm-content").click();
  await page.keyboard.press("Escape");
  await eventually(async () => (await selected()) === "kb_probe", 5_000, "kb_probe selected");
  const before = await order();
  await page.keyboard.press("Alt+ArrowDown");
  await eventually(async () => (await order()).indexOf("kb_probe") === before.indexOf("kb_probe") + 1, 15_000, "moved down one place");
  const text = readFileSync(join(server.project, "pipelines", "clv.yaml"), "utf8");
  assert.ok(text.indexOf("- id: clv") < text.indexOf("- id: kb_probe"), "moved in the pipeline file");
  await eventually(async () => (await selected()) === "kb_probe", 5_000, "still selected after the move");
  await page.keyboard.press("a");
  const form = page.locator('[data-testid="insert-form"]');
  await form.waitFor({ timeout: 5_000 });
  assert.match(await form.innerText(), /New Go block above kb_probe/);
  await form.locator("button", { hasText: "cancel" }).click();
});

test("D D asks with what it removes; dismissed, nothing goes; accepted, the block goes", async () => {
  const file = join(server.project, "blocks", "kb_probe", "kb_probe.go");
  assert.ok(existsSync(file));
  await cell(page, "kb_probe").locator(".cm-content").click();
  await page.keyboard.press("Escape");
  await eventually(async () => (await selected()) === "kb_probe", 5_000, "kb_probe selected");
  let asked = "";
  page.once("dialog", (d) => {
    asked = d.message();
    void d.dismiss();
  });
  await page.keyboard.press("d");
  // The status re-renders after the key: read at once it could still say
  // the previous test's "moved" (seen under load in CI).
  const status = cell(page, "kb_probe").locator('[data-testid="cell-status"]');
  await eventually(async () => /press D again/.test(await status.innerText()), 5_000, "press D again");
  await page.keyboard.press("d");
  await eventually(async () => asked !== "", 5_000, "the confirmation");
  assert.match(asked, /^Remove block kb_probe\?/);
  assert.match(asked, /Removes:\n  its entry in pipelines\/clv\.yaml\n  blocks\/kb_probe\/kb_probe\.go/);
  assert.match(asked, /Stored outputs stay in the warehouse/);
  assert.ok((await order()).includes("kb_probe") && existsSync(file), "dismissed: nothing removed");

  // One D, another key, one D: not a removal.
  await eventually(async () => (await selected()) === "kb_probe", 5_000, "kb_probe selected again");
  let second = "";
  page.once("dialog", (d) => {
    second = d.message();
    void d.accept();
  });
  await page.keyboard.press("d");
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("d");
  assert.equal(second, "", "no confirmation for D, ↑, ↓, D");
  await page.keyboard.press("d");
  await eventually(async () => !(await order()).includes("kb_probe"), 15_000, "removed");
  assert.match(second, /^Remove block kb_probe\?/);
  assert.ok(!existsSync(file), "its file removed");
  assert.ok(!readFileSync(join(server.project, "pipelines", "clv.yaml"), "utf8").includes("kb_probe"));
});
