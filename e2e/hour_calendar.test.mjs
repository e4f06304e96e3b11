// The backfill page of an hourly pipeline draws its partitions as a
// calendar of days, each a row of 24 hour cells with its date, in the
// pipeline's zone: the hour New York skips on 2024-03-10 has no cell, the
// cells take their partition's state color, and a click opens the hour.

import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { eventually, launchBrowser, screenshot, signedInPage, startServer } from "./harness.mjs";

let server, browser, page, id;

before(async () => {
  server = await startServer("hours");
  const yaml = `description: hourly ticks
partitions:
  interval: hour
  timezone: America/New_York
  start: "2024-03-01"
blocks: []
`;
  await server.api("POST", "/pipelines", { id: "ticks", yaml });
  await server.api("POST", "/pipelines/ticks/blocks", { id: "tick_count", kind: "sql", source: "SELECT 1 AS n\n" });
  const st = await server.api("POST", "/backfills", { pipeline: "ticks", from: "2024-03-09T00", to: "2024-03-11T23", concurrency: 8 });
  id = st.id;
  await eventually(async () => (await server.api("GET", `/backfills/${id}`)).state === "succeeded", 120_000, "the hourly backfill");
  browser = await launchBrowser();
  page = await signedInPage(browser, server, `/backfills/${id}`);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test("hour partitions are days of 24 cells with date labels", async () => {
  const cal = page.locator('[data-testid="bf-hour-calendar"]');
  await eventually(() => cal.evaluate((el) => el.calendar.shown).catch(() => false), 30_000, "the hour calendar");
  const info = await cal.evaluate((el) => {
    const c = el.calendar;
    const days = (y, m, d) => Math.round(Date.UTC(y, m - 1, d) / 86_400_000);
    return {
      days: c.days,
      labels: [c.dayLabel(days(2024, 3, 9)), c.dayLabel(days(2024, 3, 10)), c.dayLabel(days(2024, 3, 11))],
      skipped: c.cellCenter("2024-03-10T02"),
      first: c.cellCenter("2024-03-09T00"),
      last: c.cellCenter("2024-03-09T23"),
      nextDay: c.cellCenter("2024-03-10T00"),
      color: c.color("2024-03-10T05"),
    };
  });
  assert.equal(info.days, 3, "three days of hours");
  assert.deepEqual(info.labels, ["Sa 09", "Su 10", "Mo 11"]);
  assert.equal(info.skipped, null, "02:00 does not exist on 2024-03-10 in New York");
  assert.ok(info.last.x > info.first.x && info.last.y === info.first.y, "a day's hours run along one row");
  assert.ok(info.nextDay.y > info.first.y && info.nextDay.x === info.first.x, "the next day is the next row");
  assert.equal(info.color, "#22a06b", "a succeeded hour has the succeeded color (grid_canvas.ts)");
  // Hour 05 of Sunday: its pixel is drawn in its state color, and a click opens it.
  const c = await cal.evaluate((el) => el.calendar.cellCenter("2024-03-10T05"));
  const px = await cal.evaluate((el, p) => {
    const cv = el.querySelector("canvas");
    const r = window.devicePixelRatio || 1;
    const [r0, g0, b0] = cv.getContext("2d").getImageData(Math.floor(p.x * r), Math.floor(p.y * r), 1, 1).data;
    return `#${[r0, g0, b0].map((v) => v.toString(16).padStart(2, "0")).join("")}`;
  }, c);
  assert.equal(px, info.color.toLowerCase(), "the cell is painted with its partition's color");
  await cal.evaluate((el) => el.scrollIntoView());
  const box = await cal.locator("canvas").boundingBox();
  await page.mouse.click(box.x + c.x, box.y + c.y);
  const drawer = page.locator('[data-testid="partition-drawer"]');
  await drawer.waitFor({ timeout: 20_000 });
  assert.match(await drawer.locator("h2").innerText(), /2024-03-10T05/);
  await screenshot(page, "hour-calendar");
});
