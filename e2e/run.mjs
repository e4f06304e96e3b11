// Runs the end-to-end tests (e2e/*.test.mjs) against the real bin/strata (set
// STRATA_BIN to use another binary). `make test-e2e` builds the binary with
// the UI embedded first.
//
// Files run two at a time by default (STRATA_E2E_JOBS): each file starts its
// own server on a free port in its own temp project, and most of a file's
// time is spent waiting on the server and the browser, so two files share the
// two cores of a CI machine well. Each file's output is printed whole when
// it ends (never interleaved), and the slowest files are listed at the end so
// the suite's time stays visible.

import { spawn } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { BIN, CHROMIUM, ROOT } from "./harness.mjs";

if (!existsSync(BIN)) {
  console.error(`e2e: ${BIN} not found: run \`make build\` first (it builds the UI and embeds it)`);
  process.exit(2);
}
if (!existsSync(CHROMIUM)) {
  console.error(`e2e: ${CHROMIUM} not found: apt-get install -y --no-install-recommends chromium`);
  process.exit(2);
}
const jobs = Number(process.env.STRATA_E2E_JOBS ?? 2);
if (!Number.isInteger(jobs) || jobs < 1) {
  console.error(`e2e: STRATA_E2E_JOBS=${process.env.STRATA_E2E_JOBS}: expected a whole number of files to run at once, 1 or more`);
  process.exit(2);
}
const dir = join(ROOT, "e2e");
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".test.mjs") && (only.length === 0 || only.some((o) => f.includes(o))))
  .sort()
  .map((f) => join(dir, f));

/** Runs one file in its own node --test process; resolves with its exit status, wall time and output. */
function runFile(file) {
  const started = Date.now();
  return new Promise((done) => {
    const child = spawn(process.execPath, ["--test", "--test-reporter=spec", file], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code, signal) => done({ file: basename(file), status: code ?? 1, signal, ms: Date.now() - started, out }));
  });
}

const started = Date.now();
const results = [];
let next = 0;
async function worker() {
  while (next < files.length) {
    const r = await runFile(files[next++]);
    results.push(r);
    const mark = r.status === 0 ? "ok" : `FAILED (exit ${r.status}${r.signal ? `, ${r.signal}` : ""})`;
    process.stdout.write(`\n── ${r.file}: ${mark} in ${(r.ms / 1000).toFixed(1)} s\n${r.out}`);
  }
}
await Promise.all(Array.from({ length: Math.min(jobs, files.length) }, worker));

const failed = results.filter((r) => r.status !== 0);
const slowest = [...results].sort((a, b) => b.ms - a.ms).slice(0, 8);
console.log(`\ne2e: ${files.length} files, ${jobs} at a time, in ${((Date.now() - started) / 1000).toFixed(0)} s`);
console.log("slowest: " + slowest.map((r) => `${r.file} ${(r.ms / 1000).toFixed(1)} s`).join(", "));
if (failed.length > 0) {
  console.log(`FAILED: ${failed.map((r) => r.file).join(", ")}`);
  process.exit(1);
}
