// Scale-out in the UI: a coordinator that runs nothing itself
// (--no-local) and one real `strata worker`; a backfill runs on the worker
// and a partition's block runs name it.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { BIN, eventually, freePort, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, worker, natsURL;
let workerLog = "";

before(async () => {
  natsURL = `nats://127.0.0.1:${await freePort()}`;
  server = await startServer("scaleout", ["--listen-workers", natsURL.slice("nats://".length), "--no-local", "--ack-wait", "5s"]);
  worker = spawn(BIN, ["worker", "--nats", natsURL, "--token-file", join(server.project, ".strata", "worker-token"), "--slots", "2", "--name", "ui-w1"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  worker.stdout.on("data", (d) => (workerLog += d));
  worker.stderr.on("data", (d) => (workerLog += d));
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  if (worker && worker.exitCode === null) {
    worker.kill("SIGTERM");
    await Promise.race([new Promise((r) => worker.once("exit", r)), new Promise((r) => setTimeout(r, 10_000))]);
  }
  await server?.stop();
});

test("a backfill runs on the worker and the partition drawer names it", async () => {
  const bf = await server.api("POST", "/backfills", { pipeline: "clv", from: "2024-01-01", to: "2024-01-02", concurrency: 2 });
  await eventually(async () => (await server.api("GET", `/backfills/${bf.id}`)).state === "succeeded", 60_000, `the backfill to succeed (worker: ${workerLog})`);
  const page = await signedInPage(browser, server, `/backfills/${bf.id}`);
  const canvas = page.locator('[data-testid="partition-grid"] canvas');
  await canvas.waitFor();
  const box = await canvas.boundingBox();
  await page.mouse.click(box.x + 8, box.y + 8); // the first day
  const drawer = page.locator('[data-testid="partition-drawer"]');
  await drawer.locator("h2", { hasText: "2024-01-01" }).waitFor();
  const runs = drawer.locator('[data-testid="block-runs"]');
  await runs.waitFor({ timeout: 10_000 });
  assert.match(await runs.locator("thead").innerText(), /worker/);
  const workers = await drawer.locator('[data-testid="block-worker"]').allInnerTexts();
  assert.ok(workers.includes("ui-w1"), `block runs by worker: ${JSON.stringify(workers)}`);
  // And how it ran each: the shipped compiled build, or interpreted.
  const engines = await drawer.locator('[data-testid="block-engine"]').allInnerTexts();
  assert.ok(engines.some((e) => e === "compiled" || e === "interp"), `block runs by engine: ${JSON.stringify(engines)}`);
  assert.match(await runs.innerText(), /raw_orders\s+succeeded/);
  await screenshot(page, "scaleout-partition");
});
