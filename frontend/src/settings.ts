// User settings kept in localStorage: which zone times are shown in.

import { parseZoneMode, resolveZone, type ZoneMode } from "./time";

const ZONE_KEY = "strata.zoneMode";
const GOFMT_KEY = "strata.gofmtOnSave";
type Listener = () => void;
const listeners = new Set<Listener>();

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

export const settings = {
  get zoneMode(): ZoneMode {
    return parseZoneMode(storage()?.getItem(ZONE_KEY));
  },
  set zoneMode(m: ZoneMode) {
    storage()?.setItem(ZONE_KEY, m);
    listeners.forEach((l) => l());
  },
  /** Go cells are saved as gofmt prints them (on unless turned off). */
  get gofmtOnSave(): boolean {
    return storage()?.getItem(GOFMT_KEY) !== "off";
  },
  set gofmtOnSave(on: boolean) {
    storage()?.setItem(GOFMT_KEY, on ? "on" : "off");
    listeners.forEach((l) => l());
  },
  /** The zone to show times in, given the pipeline's zone on this page. */
  zone(pipelineZone?: string): string {
    return resolveZone(this.zoneMode, pipelineZone);
  },
  onChange(l: Listener): () => void {
    listeners.add(l);
    return () => listeners.delete(l);
  },
};
