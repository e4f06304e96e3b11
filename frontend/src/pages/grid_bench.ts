// A synthetic partition grid for the benchmark (`npm run bench`): n
// partitions in random states, scrolled end to end; frame times go to
// window.__gridBench. Not linked from the app.

import { html } from "lit-html";
import type { Page } from "../app";
import { STATES } from "../grid";
import { PartitionGrid } from "../views/grid_canvas";

declare global {
  interface Window {
    __gridBench?: { firstPaintMs: number; frames: number[]; draws: number[]; done: boolean; n: number };
  }
}

export function gridBench(n: number): Page {
  const grid = new PartitionGrid();
  const t0 = performance.now();
  const rows = Array.from({ length: n }, (_, i) => ({ key: `p${i}`, state: STATES[(i * 2654435761) % 5] }));
  window.__gridBench = { firstPaintMs: 0, frames: [], draws: [], done: false, n };
  const start = () => {
    if (!grid.el.isConnected) return requestAnimationFrame(start);
    grid.setCount(n);
    grid.fill(0, rows);
    grid.draw();
    requestAnimationFrame(() => {
      window.__gridBench!.firstPaintMs = performance.now() - t0;
      // Scroll to the bottom over ~120 frames and record each frame's time.
      const max = grid.el.scrollHeight - grid.el.clientHeight;
      let i = 0,
        last = performance.now();
      const tick = () => {
        const now = performance.now();
        window.__gridBench!.frames.push(now - last);
        last = now;
        grid.el.scrollTop = (max * ++i) / 120;
        if (i <= 120) requestAnimationFrame(tick);
        else {
          window.__gridBench!.draws = grid.drawTimes.slice();
          window.__gridBench!.done = true;
        }
      };
      requestAnimationFrame(tick);
    });
  };
  requestAnimationFrame(start);
  return { title: "grid bench", render: () => html`<main class="page"><h1>${n.toLocaleString("en-US")} partitions</h1>${grid.el}</main>` };
}
