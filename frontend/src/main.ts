// Entry point: routes to pages.

import "./style.css";
import { html } from "lit-html";
import { api, errorText } from "./api";
import { app, type Page } from "./app";
import { BackfillPage } from "./pages/backfill";
import { BackfillsPage } from "./pages/backfills";
import { PipelinePage } from "./pages/pipeline";
import { ProductsPage } from "./pages/products";
import { RunPage } from "./pages/run";
import { RunsPage } from "./pages/runs";
import { UsersPage } from "./pages/users";
import { loadRole } from "./role";
import { queryFromParams } from "./runs";

app.route(/^\/$/, async (): Promise<Page> => {
  try {
    const { pipelines } = await api.pipelines();
    if (pipelines.length === 1) {
      queueMicrotask(() => app.go(`/pipelines/${encodeURIComponent(pipelines[0].id)}`, true));
    }
    return {
      title: "Pipelines",
      render: () => html`<main class="page">
        <h1>Pipelines</h1>
        <ul class="pipeline-list">
          ${pipelines.map((p) => html`<li><a href=${`/pipelines/${encodeURIComponent(p.id)}`}><b>${p.id}</b></a> · ${p.blocks} blocks · ${p.partitions.interval} in ${p.partitions.timezone}${p.problems ? html` · <span class="error-text">${p.problems} problem(s)</span>` : ""}<div class="muted">${p.description}</div></li>`)}
        </ul>
      </main>`,
    };
  } catch (e) {
    return { title: "Strata", render: () => html`<main class="page"><div class="error-box">${errorText(e)}</div></main>` };
  }
});
app.route(/^\/pipelines\/([^/]+)\/?$/, (m, q) => new PipelinePage(m[1], q.get("partition")));
app.route(/^\/products\/?$/, () => new ProductsPage(null));
app.route(/^\/products\/([^/]+)\/?$/, (m, q) => new ProductsPage(m[1], q.get("end")));
app.route(/^\/backfills\/?$/, (_m, q) => new BackfillsPage(q.get("pipeline")));
app.route(/^\/backfills\/([^/]+)\/?$/, (m) => new BackfillPage(m[1]));
app.route(/^\/runs\/?$/, (_m, q) => new RunsPage(queryFromParams(q)));
app.route(/^\/runs\/([^/]+)\/?$/, (m, q) => new RunPage(m[1], q.get("block") ?? ""));
app.route(/^\/users\/?$/, () => new UsersPage());
// A synthetic 100,000-partition grid for `npm run bench` (loaded on demand).
app.route(/^\/dev\/grid-bench\/?$/, async (_m, q) => (await import("./pages/grid_bench")).gridBench(+(q.get("n") ?? 100000)));

// The role first: pages render without the controls it may not use.
void loadRole().finally(() => app.start(document.getElementById("app")!));
