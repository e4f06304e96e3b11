// The environment this browser tab works in ("" is prod): where runs,
// backfills, editor cells and previews go (api.ts and ws.ts read it). It is
// kept per tab (sessionStorage), so a second tab opens in prod, and a
// ?env= in a link switches the tab. The shell marks every page of an
// environment (class in-env on <html>, a banner, the title) so that dev data
// is never taken for prod's.

import { call, enc } from "./api";
import type { EnvDiff, EnvSummary } from "./types";

const KEY = "strata.env";
let current = "";
let known: EnvSummary[] = [];
const listeners = new Set<() => void>();

function read(): string {
  try {
    return sessionStorage.getItem(KEY) ?? "";
  } catch {
    return "";
  }
}

/** The current environment: "" for prod. */
export function currentEnv(): string {
  return current;
}

/** The environments the server has (as of the last load). */
export function knownEnvs(): EnvSummary[] {
  return known;
}

/** Switches this tab to name ("" or "prod": prod). */
export function setEnv(name: string): void {
  current = name === "prod" ? "" : name;
  try {
    if (current) sessionStorage.setItem(KEY, current);
    else sessionStorage.removeItem(KEY);
  } catch {
    /* private mode: the switch lasts until a reload */
  }
  document.documentElement.classList.toggle("in-env", current !== "");
  if (current) document.documentElement.dataset.env = current;
  else delete document.documentElement.dataset.env;
  for (const f of listeners) f();
}

/** Calls f after every switch. */
export function onEnvChange(f: () => void): void {
  listeners.add(f);
}

/** Reads the tab's environment (a ?env= in the URL wins) and the list; an environment that no longer exists falls back to prod. */
export async function loadEnvs(): Promise<void> {
  const fromURL = new URLSearchParams(location.search).get("env");
  setEnv(fromURL ?? read());
  try {
    known = await envApi.list();
  } catch {
    return;
  }
  if (current && !known.some((e) => e.name === current)) setEnv("");
  for (const f of listeners) f();
}

export const envApi = {
  list: () => call<EnvSummary[]>("GET", "/envs"),
  create: (name: string, triggers = false) => call<EnvSummary>("POST", "/envs", { name, triggers }),
  discard: (name: string) => call<{ env: string; discarded_versions: number }>("DELETE", `/envs/${enc(name)}`),
  diff: (name: string) => call<EnvDiff>("GET", `/envs/${enc(name)}/diff`),
  rows: (name: string, product: string, partition: string, rows = 50) =>
    call<import("./types").PartitionDiff>("GET", `/envs/${enc(name)}/diff/rows?` + new URLSearchParams({ product, partition, rows: String(rows) })),
  get: (name: string) => call<EnvSummary>("GET", `/envs/${enc(name)}`),
  /** Undoes the environment's latest promote (batch ""), in one transaction. */
  rollback: (name: string, batch = "") => call<{ env: string; batch: string; rolled_back: number }>("POST", `/envs/${enc(name)}/rollback`, { batch }),
  promote: (name: string, override: boolean) => call<{ batch: string; partitions: Record<string, number>; versions: unknown[] }>("POST", `/envs/${enc(name)}/promote`, { override }),
};
