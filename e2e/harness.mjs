// Shared setup of the end-to-end tests: the real bin/strata on a fresh demo
// project in a temp dir, on a free port, and Debian's Chromium driven by
// playwright-core. Screenshots go to artifacts/e2e/<test>.png.

import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const BIN = process.env.STRATA_BIN ?? join(ROOT, "bin/strata");
export const TOKEN = "test-token-e2e-0123456789";
export const ARTIFACTS = join(ROOT, "artifacts/e2e");
export const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

export function freePort() {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => ok(port));
    });
  });
}

/**
 * Starts `strata start DIR` (with extra flags) on a fresh demo project, or
 * on an empty one (`strata init DIR`) with { empty: true }, on opts.port
 * when given; resolves once it answers /healthz.
 */
export async function startServer(name = "e2e", extra = [], opts = {}) {
  const dir = mkdtempSync(join(tmpdir(), `strata-${name}-`));
  // opts.project: an existing project (the grid benchmark's), left in place by stop().
  const project = opts.project ?? join(dir, "demo");
  if (opts.empty) {
    const r = spawnSync(BIN, ["init", project], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`strata init exited with ${r.status}: ${r.stderr}`);
  }
  const port = opts.port ?? (await freePort()); // a login test must know it first (the redirect URL)
  let proc;
  let log = "";
  const base = `http://127.0.0.1:${port}`;
  const launch = async () => {
    proc = spawn(BIN, ["start", project, "--addr", `127.0.0.1:${port}`, "--token", TOKEN, ...extra], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    proc.stdout.on("data", (d) => (log += d));
    proc.stderr.on("data", (d) => (log += d));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`strata start exited with ${proc.exitCode}:\n${log}`);
      try {
        const r = await fetch(base + "/healthz");
        if (r.ok) break;
      } catch {
        /* not up yet */
      }
      if (Date.now() > deadline) throw new Error(`strata start did not answer within 60 s:\n${log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const halt = async () => {
    if (proc.exitCode === null) {
      proc.kill("SIGTERM");
      await Promise.race([new Promise((r) => proc.once("exit", r)), new Promise((r) => setTimeout(r, 15_000))]);
      if (proc.exitCode === null) proc.kill("SIGKILL");
    }
  };
  await launch();
  return {
    base,
    url: `${base}/?token=${TOKEN}`,
    project,
    log: () => log,
    /** The server process's id (its memory, for benchmarks). */
    pid: () => proc.pid,
    /** Calls the API with the token. */
    async api(method, path, body) {
      const r = await fetch(base + "/api/v1" + path, {
        method,
        headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await r.text();
      if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text}`);
      return text ? JSON.parse(text) : undefined;
    },
    /** Stops the server and starts it again on the same project and port (a restart). */
    async restart() {
      await halt();
      await launch();
    },
    async stop() {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser() {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}

/** A page signed in through the printed URL (the ?token= visit sets the cookie). */
export async function signedInPage(browser, server, path = "/") {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  page.on("pageerror", (e) => console.error("page error:", e.message));
  await page.goto(server.url);
  if (path !== "/") await page.goto(server.base + path);
  return page;
}

export async function screenshot(page, name) {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/** The cell of a block on the pipeline page. */
export function cell(page, block) {
  return page.locator(`[data-testid="cell-${block}"]`);
}

/** Puts the cursor at the end of the first editor line containing text, then inserts a new line after it. Returns the new line's number. */
export async function insertLineAfter(page, block, text, insert) {
  const c = cell(page, block);
  const line = c.locator(".cm-line", { hasText: text }).first();
  await line.click();
  await page.keyboard.press("End");
  await page.keyboard.press("Enter");
  await page.keyboard.insertText(insert);
  return lineNumberOf(page, block, insert);
}

/** The 1-based line number of the first editor line containing text. */
export async function lineNumberOf(page, block, text) {
  return cell(page, block)
    .locator(".cm-content")
    .evaluate((el, t) => [...el.querySelectorAll(".cm-line")].findIndex((l) => l.textContent.includes(t)) + 1, text);
}

/** Deletes the first editor line containing text. */
export async function deleteLine(page, block, text) {
  const line = cell(page, block).locator(".cm-line", { hasText: text }).first();
  await line.click();
  await page.keyboard.press("Home");
  await page.keyboard.press("Home");
  await page.keyboard.press("Shift+End");
  await page.keyboard.press("Backspace");
  await page.keyboard.press("Backspace");
}

/** Waits until fn() returns a truthy value. */
export async function eventually(fn, timeout = 30_000, what = "condition") {
  const end = Date.now() + timeout;
  let last;
  for (;;) {
    try {
      last = await fn();
      if (last) return last;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${last}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}
