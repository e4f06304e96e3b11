import { describe, expect, it } from "vitest";
import { bodyOf, fieldsOf } from "./trigger_form";
import type { TriggerStatus } from "./trigger_panel";

const nightly: TriggerStatus = {
  pipeline: "clv",
  id: "nightly",
  kind: "schedule",
  cron: "30 2 * * *",
  timezone: "America/New_York",
  run: "latest-complete",
  catch_up: 3,
  paused: false,
};

describe("trigger form", () => {
  it("fills from a trigger and writes back only what the kind uses", () => {
    const f = fieldsOf(nightly, "America/New_York");
    expect(f).toEqual({ id: "nightly", kind: "schedule", cron: "30 2 * * *", timezone: "America/New_York", product: "", changes: "", run: "latest-complete", catchUp: "3" });
    // The pipeline's zone is the file's default: not written.
    expect(bodyOf(f, "America/New_York")).toEqual({ id: "nightly", kind: "schedule", cron: "30 2 * * *", run: "latest-complete", catch_up: 3 });
    expect(bodyOf({ ...f, timezone: "Europe/Paris", catchUp: "1", run: "" }, "America/New_York")).toEqual({ id: "nightly", kind: "schedule", cron: "30 2 * * *", timezone: "Europe/Paris" });
    expect(bodyOf({ ...f, kind: "event", product: " orders " }, "UTC")).toEqual({ id: "nightly", kind: "event", product: "orders", run: "latest-complete" });
    expect(bodyOf({ ...f, kind: "api", run: "" }, "UTC")).toEqual({ id: "nightly", kind: "api" });
  });

  it("a new-key trigger keeps changes: new-key; new versions send none", () => {
    const f = fieldsOf({ pipeline: "orders", id: "new-customers", kind: "event", product: "dim_customers", changes: "new-key", run: "affected", paused: false }, "UTC");
    expect(f.changes).toBe("new-key");
    expect(bodyOf(f, "UTC")).toEqual({ id: "new-customers", kind: "event", product: "dim_customers", changes: "new-key", run: "affected" });
    expect(bodyOf({ ...f, changes: "" }, "UTC")).toEqual({ id: "new-customers", kind: "event", product: "dim_customers", run: "affected" });
    expect(bodyOf({ ...f, kind: "api", run: "" }, "UTC")).toEqual({ id: "new-customers", kind: "api" });
  });

  it("says what is wrong before sending", () => {
    const f = fieldsOf(undefined, "UTC");
    expect(bodyOf(f, "UTC")).toMatch(/^id:/);
    expect(bodyOf({ ...f, id: "Nightly" }, "UTC")).toMatch(/^id:/);
    expect(bodyOf({ ...f, id: "n", cron: " " }, "UTC")).toMatch(/^cron:/);
    expect(bodyOf({ ...f, id: "n", catchUp: "0" }, "UTC")).toMatch(/^catch-up:/);
    expect(bodyOf({ ...f, id: "n", catchUp: "1.5" }, "UTC")).toMatch(/^catch-up:/);
    expect(bodyOf({ ...f, id: "n", kind: "event" }, "UTC")).toMatch(/^product:/);
  });
});
