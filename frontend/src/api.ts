// The JSON API under /api/v1. Same-origin requests carry the token cookie
// that the first ?token= visit set. Errors arrive as
// {"error": {"code", "message", "details"}} and are thrown as ApiError.

import type { ColumnSummary } from "./table_state";
import type { FailureGroup } from "./views/failure_groups";
import type {
  Aggregation,
  ApiErrorBody,
  BackfillReview,
  BackfillSpec,
  BackfillStatus,
  BlockDetail,
  CellOutput,
  DeletePlan,
  DraftRowsResponse,
  PartitionDiff,
  PartitionStatus,
  PipelineSummary,
  PipelineView,
  NewPipelineForm,
  Plan,
  PreviewResponse,
  ProductPartition,
  ProductView,
  Problem,
  PromoteResult,
  ReplayJob,
  RunDetail,
  RunSummary,
} from "./types";

import { currentEnv } from "./env";

/** Where runs and backfills go: the tab's environment's routes, or prod's. */
const into = () => (currentEnv() ? `/envs/${enc(currentEnv())}` : "");
/** The env parameter of reads the environment changes (previews): undefined in prod. */
const envParam = () => currentEnv() || undefined;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** Where the API lives: same-origin (the dev server proxies it to `strata start`). */
export const API = "/api/v1";

export async function call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const init: RequestInit = { method, credentials: "same-origin", headers: { ...headers } };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)["Content-Type"] = "application/json";
  }
  const res = await fetch(API + path, init);
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let data: unknown = undefined;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON: handled below */
  }
  if (!res.ok) {
    const e = (data as { error?: Partial<ApiErrorBody> })?.error;
    if (res.status === 401) {
      // With browser login configured, details.login is where to log in (role.ts goes there).
      const login = (e?.details as { login?: string } | undefined)?.login;
      const how = login ? "log in" : "open the URL that `strata start` printed (it ends with ?token=…)";
      throw new ApiError(401, "unauthorized", `Not signed in: ${how}.`, login ? { login } : undefined);
    }
    throw new ApiError(res.status, e?.code ?? String(res.status), e?.message ?? (text || res.statusText), e?.details);
  }
  return data as T;
}

export const q = (params: Record<string, string | number | undefined>) => {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") u.set(k, String(v));
  const s = u.toString();
  return s ? "?" + s : "";
};
/**
 * Escapes a path segment, leaving ':' and '@' as they are (both are legal in
 * a segment): the server matches the escaped path and does not unescape its
 * parameters, and run ids hold colons (bf_…:2024-01-03).
 */
export const enc = (s: string) => encodeURIComponent(s).replace(/%3A/gi, ":").replace(/%40/g, "@");

/** The filters and page of GET /runs. */
export interface RunQuery {
  pipeline?: string;
  backfill?: string;
  partition?: string;
  origin?: string;
  state?: string;
  limit?: number;
  offset?: number;
}

export interface ProblemDetails {
  problems?: Problem[];
}

export const api = {
  pipelines: () => call<{ pipelines: PipelineSummary[]; problems: Problem[] }>("GET", "/pipelines"),
  pipeline: (id: string) => call<PipelineView>("GET", `/pipelines/${enc(id)}`),
  /** Saves the pipeline file; with etag, refused (412 changed_elsewhere) when the file changed since. */
  savePipeline: (id: string, yaml: string, etag?: string) => call<PipelineView>("PUT", `/pipelines/${enc(id)}`, { yaml }, etag ? { "If-Match": etag } : {}),
  block: (pipeline: string, block: string) => call<BlockDetail>("GET", `/pipelines/${enc(pipeline)}/blocks/${enc(block)}`),
  /** Saves a block's file; with etag, refused (412 changed_elsewhere) when the file changed since. */
  saveBlock: (pipeline: string, block: string, source: string, etag?: string, gofmt = false) =>
    call<BlockDetail>("PUT", `/pipelines/${enc(pipeline)}/blocks/${enc(block)}` + (gofmt ? "?format=gofmt" : ""), { source }, etag ? { "If-Match": etag } : {}),
  /** Adds a block; with before, just above that block in the pipeline file (the notebook's order). */
  createBlock: (pipeline: string, b: { id: string; kind: string; upstream: string[]; before?: string }) =>
    call<BlockDetail>("POST", `/pipelines/${enc(pipeline)}/blocks`, b),
  /** The New pipeline form: the server writes the file (and the first block's). */
  createPipeline: (f: NewPipelineForm) => call<PipelineView>("POST", "/pipelines", f),
  renamePipeline: (id: string, to: string) => call<PipelineView>("POST", `/pipelines/${enc(id)}/rename`, { id: to }),
  /** What deleting a pipeline removes and keeps, for its confirmation. */
  pipelineDeletePlan: (id: string, blocks: boolean) => call<DeletePlan>("GET", `/pipelines/${enc(id)}/delete-plan` + q({ blocks: blocks ? "true" : "" })),
  deletePipeline: (id: string, blocks: boolean) => call<void>("DELETE", `/pipelines/${enc(id)}` + q({ blocks: blocks ? "true" : "" })),
  /** Moves a block just above another ("" to the end); refused above a block it reads. */
  moveBlock: (pipeline: string, block: string, before: string) => call<BlockDetail>("POST", `/pipelines/${enc(pipeline)}/blocks/${enc(block)}/move`, { before }),
  renameBlock: (pipeline: string, block: string, to: string) => call<BlockDetail>("POST", `/pipelines/${enc(pipeline)}/blocks/${enc(block)}/rename`, { id: to }),
  /** The markdown note above a block's cell; "" removes it. */
  setNote: (pipeline: string, block: string, note: string) => call<BlockDetail>("PUT", `/pipelines/${enc(pipeline)}/blocks/${enc(block)}/note`, { note }),
  /** The note after the last block ("" removes it). */
  setEndNote: (pipeline: string, note: string) => call<PipelineView>("PUT", `/pipelines/${enc(pipeline)}/note`, { note }),
  /** Each cell's last output in this editor session (after a reload). */
  sessionOutputs: (session: string, pipeline: string) => call<{ outputs: CellOutput[] }>("GET", `/sessions/${enc(session)}/outputs` + q({ pipeline })),
  /** The relations a SQL cell can name, with their columns (catalog or the session's drafts). */
  sqlTables: (pipeline: string, block: string, session: string) =>
    call<{ tables: { name: string; columns: { name: string; type: string }[]; published: boolean; draft: boolean }[] }>("GET", `/pipelines/${enc(pipeline)}/blocks/${enc(block)}/sql-tables` + q({ session, env: envParam() })),
  deleteBlock: (pipeline: string, block: string) => call<void>("DELETE", `/pipelines/${enc(pipeline)}/blocks/${enc(block)}`),
  startRun: (pipeline: string, partition: string) =>
    call<{ run_id: string; pipeline: string; partition: string; state: string }>("POST", `${into()}/pipelines/${enc(pipeline)}/runs`, { partition, origin: "editor" }),
  /** Starts a replay test of the saved code over stored partitions; nothing is published. */
  startReplay: (pipeline: string, opt: { last?: number; from?: string; to?: string; expect_unchanged?: string[]; rows?: number }) =>
    call<ReplayJob>("POST", `/pipelines/${enc(pipeline)}/replays`, opt),
  replay: (id: string) => call<ReplayJob>("GET", `/replays/${enc(id)}`),
  runs: (f: RunQuery) => call<{ runs: RunSummary[]; more?: boolean; offset?: number; limit?: number }>("GET", "/runs" + q({ ...f })),
  run: (id: string) => call<RunDetail>("GET", `/runs/${enc(id)}`),
  cancelRun: (id: string) => call<{ run_id: string; state: string }>("POST", `/runs/${enc(id)}/cancel`),
  plan: (spec: BackfillSpec, offset = 0, limit = 500) => call<Plan>("POST", "/backfills/plan" + q({ offset, limit }), spec),
  launch: (spec: BackfillSpec) => call<BackfillStatus>("POST", `${into()}/backfills`, spec),
  backfills: () => call<{ backfills: BackfillStatus[] }>("GET", "/backfills"),
  backfill: (id: string) => call<BackfillStatus>("GET", `/backfills/${enc(id)}`),
  /** A page of a backfill's grid; where (["region=eu,us", …]) narrows its value dimensions on the server. */
  backfillPartitions: (id: string, opt: { state?: string; offset?: number; limit?: number; where?: string[] } = {}) => {
    const { where, ...rest } = opt;
    let query = q(rest);
    for (const w of where ?? []) query += (query ? "&" : "?") + "where=" + encodeURIComponent(w);
    return call<{ partitions: PartitionStatus[]; total: number; offset: number; limit: number }>("GET", `/backfills/${enc(id)}/partitions` + query);
  },
  /** Every recorded version of a dynamic dimension's key set. */
  keySets: (pipeline: string, dim: string) => call<{ versions: { version: number; keys: string[] }[] }>("GET", `/pipelines/${enc(pipeline)}/key-sets/${enc(dim)}`),
  backfillFailures: (id: string) => call<{ groups: FailureGroup[] }>("GET", `/backfills/${enc(id)}/failures`),
  retryPartitions: (id: string, partitions: string[], currentCode: boolean) =>
    call<BackfillStatus>("POST", `/backfills/${enc(id)}/retry` + (currentCode ? "?use_current_code=true" : ""), { partitions }),
  /** into: the backfill's spec.into; pause, resume and cancel of one into an environment go through its routes (its launcher may, as an editor). */
  backfillAction: (id: string, action: BackfillAction, into = "") =>
    call<BackfillStatus>(
      "POST",
      (into.startsWith("env:") && (action === "pause" || action === "resume" || action === "cancel") ? `/envs/${enc(into.slice(4))}` : "") +
        `/backfills/${enc(id)}/` +
        (action === "retry-current" ? "retry?use_current_code=true" : action),
    ),
  products: () => call<{ products: ProductView[] }>("GET", "/products"),
  productPartitions: (name: string) => call<{ product: string; partitions: ProductPartition[] }>("GET", `/products/${enc(name)}/partitions`),
  preview: (
    name: string,
    w: { partition?: string; last?: number; from?: string; to?: string; period?: string; version?: number; limit?: number; offset?: number; sort?: string; filter?: string; columns?: string },
  ) => call<PreviewResponse>("GET", `/products/${enc(name)}/preview` + q({ ...w, env: envParam() })),
  /** The whole window as CSV (a download link: the token cookie goes along). */
  previewCSV: (name: string, w: Record<string, string | number | undefined>) => API + `/products/${enc(name)}/preview.csv` + q({ ...w, env: envParam() }),
  /** Each column's summary over a cell's whole output kept in the editor session. */
  draftSummary: (session: string, pipeline: string, block: string, partition: string) =>
    call<{ columns: ColumnSummary[] }>("GET", `/sessions/${enc(session)}/drafts/${enc(pipeline)}/${enc(block)}/summary` + q({ partition, env: envParam() })),
  /** A page of a cell's output kept in the editor session. */
  draftRows: (session: string, pipeline: string, block: string, p: { partition: string; offset?: number; limit?: number; sort?: string; filter?: string; columns?: string }) =>
    call<DraftRowsResponse>("GET", `/sessions/${enc(session)}/drafts/${enc(pipeline)}/${enc(block)}/rows` + q({ ...p, env: envParam() })),
  draftCSV: (session: string, pipeline: string, block: string, p: { partition: string; sort?: string; filter?: string; columns?: string }) =>
    API + `/sessions/${enc(session)}/drafts/${enc(pipeline)}/${enc(block)}/rows.csv` + q({ ...p, env: envParam() }),
  aggregate: (
    name: string,
    w: { partition?: string; last?: number; from?: string; to?: string; period?: string },
    a: { kind: string; x?: string; y?: string; agg?: string; bucket?: string; bins?: number },
  ) => call<Aggregation>("GET", `/products/${enc(name)}/aggregate` + q({ ...w, ...a, env: envParam() })),
  review: (id: string) => call<BackfillReview>("GET", `/backfills/${enc(id)}/review`),
  reviewDiff: (id: string, product: string, partition: string, rows = 50) =>
    call<PartitionDiff>("GET", `/backfills/${enc(id)}/diff` + q({ product, partition, rows })),
  promote: (id: string, opt: { only?: string; override?: boolean; skip_newer?: boolean }) => call<PromoteResult>("POST", `/backfills/${enc(id)}/promote`, opt),
  /** What a promote of the range (all when empty) would make current now: its dry run, for the confirmation. */
  promotePlan: (id: string, only?: string) => call<PromoteResult>("POST", `/backfills/${enc(id)}/promote/plan`, { only }),
  discard: (id: string) => call<{ id: string; discarded: number }>("POST", `/backfills/${enc(id)}/discard`),
  rollbackBackfill: (id: string) => call<{ id: string; rolled_back: number }>("POST", `/backfills/${enc(id)}/rollback`),
  productDiff: (name: string, partition: string, from?: number, to?: number, rows = 50) =>
    call<PartitionDiff>("GET", `/products/${enc(name)}/diff` + q({ partition, from, to, rows })),
  rollback: (name: string, partition: string, version: number) =>
    call<{ product: string; partition: string; current: number }>("POST", `/products/${enc(name)}/rollback`, { partition, version }),
};

/** A readable one-liner for any thrown value. */
export function errorText(e: unknown): string {
  if (e instanceof ApiError) {
    const d = e.details as Problem[] | ProblemDetails | undefined;
    const probs = Array.isArray(d) ? d : d?.problems;
    if (probs?.length) return e.message + ": " + probs.map((p) => `${p.file}${p.line ? ":" + p.line : ""}: ${p.message}`).join("; ");
    return e.message;
  }
  return e instanceof Error ? e.message : String(e);
}

/** The lifecycle actions of a backfill, as POST /backfills/:id/<action>. */
// retry-current retries with the files as they are now (use_current_code).
export type BackfillAction = "retry" | "retry-current" | "cancel" | "pause" | "resume" | "promote-anyway" | "keep-newer";
