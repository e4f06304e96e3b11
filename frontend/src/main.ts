// Entry point: routes to pages.

import "./style.css";
import { app } from "./app";
import { BackfillPage } from "./pages/backfill";
import { BackfillsPage } from "./pages/backfills";
import { PipelinePage } from "./pages/pipeline";
import { PipelinesPage } from "./pages/pipelines";
import { ProductsPage } from "./pages/products";
import { RunPage } from "./pages/run";
import { RunsPage } from "./pages/runs";
import { UsersPage } from "./pages/users";
import { loadRole } from "./role";
import { loadEnvs } from "./env";
import { EnvPage, EnvsPage } from "./pages/envs";
import { queryFromParams } from "./runs";

// The first page of a visit opens the only pipeline at once; the nav link lists them.
let firstPage = true;
app.route(/^\/$/, () => new PipelinesPage(firstPage));
app.route(/^\/pipelines\/([^/]+)\/?$/, (m, q) => new PipelinePage(m[1], q.get("partition")));
app.route(/^\/products\/?$/, () => new ProductsPage(null));
app.route(/^\/products\/([^/]+)\/?$/, (m, q) => new ProductsPage(m[1], q.get("end"), q.get("partition")));
app.route(/^\/backfills\/?$/, (_m, q) => new BackfillsPage(q.get("pipeline")));
app.route(/^\/backfills\/([^/]+)\/?$/, (m) => new BackfillPage(m[1]));
app.route(/^\/runs\/?$/, (_m, q) => new RunsPage(queryFromParams(q)));
app.route(/^\/runs\/([^/]+)\/?$/, (m, q) => new RunPage(m[1], q.get("block") ?? ""));
app.route(/^\/users\/?$/, () => new UsersPage());
app.route(/^\/envs\/?$/, () => new EnvsPage());
app.route(/^\/envs\/([^/]+)\/?$/, (m) => new EnvPage(m[1]));
// A synthetic 100,000-partition grid for `npm run bench` (loaded on demand).
app.route(/^\/dev\/grid-bench\/?$/, async (_m, q) => (await import("./pages/grid_bench")).gridBench(+(q.get("n") ?? 100000)));

// The role first: pages render without the controls it may not use.
void Promise.all([loadRole(), loadEnvs()]).finally(() => {
  app.start(document.getElementById("app")!);
  firstPage = false;
});
