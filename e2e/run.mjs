// Runs the end-to-end tests (e2e/*.test.mjs) one file at a time against the
// real bin/strata (set STRATA_BIN to use another binary). `make test-e2e`
// builds the binary with the UI embedded first.

import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { BIN, CHROMIUM, ROOT } from "./harness.mjs";

if (!existsSync(BIN)) {
  console.error(`e2e: ${BIN} not found: run \`make build\` first (it builds the UI and embeds it)`);
  process.exit(2);
}
if (!existsSync(CHROMIUM)) {
  console.error(`e2e: ${CHROMIUM} not found: apt-get install -y --no-install-recommends chromium`);
  process.exit(2);
}
const dir = join(ROOT, "e2e");
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".test.mjs") && (only.length === 0 || only.some((o) => f.includes(o))))
  .sort()
  .map((f) => join(dir, f));
const r = spawnSync(process.execPath, ["--test", "--test-concurrency=1", "--test-reporter=spec", ...files], { stdio: "inherit", cwd: ROOT });
process.exit(r.status ?? 1);
