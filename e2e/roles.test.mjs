// People and roles in the browser: a viewer signed in with its own token
// sees pipelines, backfills and runs but no edit or launch controls, its
// editors are read-only, and the API refuses what the page hides; an
// operator sees the launch controls and launches, and the backfill page
// says who launched it.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { cell, eventually, launchBrowser, screenshot, startServer } from "./harness.mjs";

let server, browser;
const tokens = {};

before(async () => {
  server = await startServer("roles");
  for (const [name, role] of [["vera", "viewer"], ["otto", "operator"]]) {
    const r = await server.api("POST", "/users", { name, role });
    tokens[role] = r.token;
  }
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function pageAs(role, path) {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  page.on("pageerror", (e) => console.error("page error:", e.message));
  await page.goto(`${server.base}/?token=${tokens[role]}`);
  await page.goto(server.base + path);
  return page;
}

async function as(role, method, path, body) {
  const r = await fetch(server.base + "/api/v1" + path, {
    method,
    headers: { Authorization: `Bearer ${tokens[role]}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, body: await r.text() };
}

test("a viewer sees no edit or launch controls, and the API refuses them", async () => {
  const page = await pageAs("viewer", "/pipelines/clv?partition=2024-01-03");
  await cell(page, "raw_orders").locator(".cm-content").waitFor();
  await eventually(async () => (await page.locator('[data-testid="whoami"]').innerText()).includes("vera · viewer"), 10_000, "the header names the viewer");
  for (const id of ["run", "save", "run-upstream", "run-pipeline", "open-backfill", "restart-kernel"]) {
    const visible = await page.locator(`[data-testid="${id}"]`).evaluateAll((els) => els.filter((e) => e.offsetParent !== null).length);
    assert.equal(visible, 0, `${id} is visible to a viewer`);
  }
  // The source reads but does not edit.
  assert.equal(await cell(page, "raw_orders").locator(".cm-content").getAttribute("contenteditable"), "false");
  await screenshot(page, "roles-viewer-pipeline");

  // What the page hides, the API refuses.
  const launch = await as("viewer", "POST", "/backfills", { pipeline: "clv", from: "2024-01-01", to: "2024-01-02" });
  assert.equal(launch.status, 403, launch.body);
  assert.match(JSON.parse(launch.body).error.message, /needs the operator role; vera is viewer/);
  const save = await as("viewer", "PUT", "/pipelines/clv/blocks/raw_orders", { source: "package x" });
  assert.equal(save.status, 403, save.body);
  const read = await as("viewer", "GET", "/pipelines/clv", undefined);
  assert.equal(read.status, 200);

  await page.goto(server.base + "/backfills");
  await page.locator('[data-testid="backfill-form"]').waitFor();
  assert.equal(await page.locator('[data-testid="bf-launch"]').isVisible(), false, "launch is visible to a viewer");
});

test("an operator launches a backfill, and its page says who launched it", async () => {
  const page = await pageAs("operator", "/pipelines/clv?partition=2024-01-03");
  await cell(page, "raw_orders").locator(".cm-content").waitFor();
  await page.locator('[data-testid="open-backfill"]').waitFor({ state: "visible" });
  assert.ok(await page.locator('[data-testid="run-pipeline"]').isVisible(), "an operator has Run pipeline");
  const r = await as("operator", "POST", "/backfills", { pipeline: "clv", from: "2024-01-01", to: "2024-01-02" });
  assert.equal(r.status, 201, r.body);
  const id = JSON.parse(r.body).id;
  await page.goto(`${server.base}/backfills/${encodeURIComponent(id)}`);
  await eventually(async () => (await page.locator('[data-testid="bf-actor"]').innerText()) === "launched by otto", 15_000, "launched by otto");
  await screenshot(page, "roles-operator-backfill");
  const audit = await server.api("GET", "/audit?actor=otto");
  assert.ok(audit.entries.some((e) => e.action === "backfill.launch" && e.target === id), JSON.stringify(audit.entries));
});

test("an admin adds a user on the People page, sees its token once, and revokes it", async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  await page.goto(server.url); // the server's own token: the owner, an admin
  await page.locator('[data-testid="nav-users"]').click();
  await page.locator('[data-testid="users-page"]').waitFor();
  await page.locator('[data-testid="add-user"] input[name="name"]').fill("ed");
  await page.locator('[data-testid="add-user"] select[name="role"]').selectOption("editor");
  await page.locator('[data-testid="add-user"] button[type="submit"]').click();
  const token = (await page.locator('[data-testid="new-token"] pre').innerText()).trim();
  assert.match(token, /^[0-9a-f]{64}$/);
  tokens.editor = token;
  assert.equal((await as("editor", "GET", "/me")).status, 200);
  await eventually(async () => (await page.locator('[data-testid="audit-table"]').innerText()).includes("user.add"), 10_000, "the audit trail shows user.add");
  await screenshot(page, "roles-admin-people");
  page.once("dialog", (d) => d.accept());
  await page.locator('tr[data-user="ed"] [data-testid="revoke"]').click();
  await eventually(async () => (await page.locator('tr[data-user="ed"]').innerText()).includes("revoked"), 10_000, "ed revoked");
  assert.equal((await as("editor", "GET", "/me")).status, 401);
  // A viewer has no People link, and the API refuses it the users.
  const vpage = await pageAs("viewer", "/runs");
  await vpage.locator('[data-testid="whoami"]').waitFor();
  assert.equal(await vpage.locator('[data-testid="nav-users"]').count(), 0);
  assert.equal((await as("viewer", "GET", "/users")).status, 403);
});
