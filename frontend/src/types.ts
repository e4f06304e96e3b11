// Shapes of the server's JSON API (server/*.go) and websocket messages
// (server/ws_messages.go). Only what the app reads is typed.

export interface ApiErrorBody {
  code: string;
  message: string;
  details?: unknown;
}

export interface PartitionsConfig {
  interval: string; // hour, day, week, month, quarter, year or none
  timezone: string;
  start?: string;
  week_start?: string;
  /** Value dimensions beside time, in key order (cells.ts); absent for time-only pipelines. */
  dims?: DimConfig[];
  /** Where the time part sits among a key's parts (0: first). */
  time_pos?: number;
}

/** One value dimension: static with its values, or dynamic (a product's column). */
export interface DimConfig {
  name: string;
  kind: "static" | "dynamic";
  values?: string[];
  product?: string;
  column?: string;
}

export interface Problem {
  file: string;
  line?: number;
  column?: number;
  field?: string;
  message: string;
}

export interface BlockView {
  id: string;
  file: string;
  kind: string; // go, sql, or "" when no file was found
  upstream: string[];
  dynamic: boolean;
  reduce: boolean;
  fan_out?: string;
  product?: string;
  writes: string; // the warehouse product holding its output
  partitions: PartitionsConfig;
  entry?: string;
  has_check: boolean;
  line: number;
  /** Markdown shown above the cell (blocks[].note in the pipeline file). */
  note?: string;
}

/** POST /pipelines from the New pipeline form. */
export interface NewPipelineForm {
  id: string;
  description?: string;
  partitions: { interval: string; timezone?: string; start?: string };
  block?: { id: string; kind: string };
}

/** What deleting a pipeline removes, keeps, and leaves stored. */
export interface DeletePlan {
  pipeline: string;
  removes: string[];
  keeps: string[];
  products: string[];
}

/** A cell's last output in the editor session: the message that ended it. */
export interface CellOutput {
  block: string;
  partition: string;
  at: string;
  message: ServerMessage;
}

export interface BlockDetail extends BlockView {
  pipeline: string;
  source: string;
  /** The file's version, sent back as If-Match on save. */
  etag: string;
  problems: Problem[];
}

export interface PipelineSummary {
  id: string;
  file: string;
  description: string;
  partitions: PartitionsConfig;
  blocks: number;
  problems: number;
  runnable: boolean;
}

export interface Edge {
  from: string;
  to: string;
}

export interface PipelineView {
  id: string;
  file: string;
  yaml: string;
  etag: string;
  description: string;
  /** Markdown shown after the last block (end_note of the pipeline file). */
  end_note?: string;
  partitions: PartitionsConfig;
  concurrency: number;
  blocks: BlockView[];
  order: string[];
  edges: Edge[];
  problems: Problem[];
  runnable: boolean;
}

export interface Column {
  name: string;
  type: string; // int64, float64, string, bool, time (an instant), date, timestamp (a wall time), uint64, int128, decimal
  sql_type?: string; // the DuckDB type: DECIMAL(38,10), HUGEINT, TIMESTAMP …
}

export interface Preview {
  columns: Column[];
  rows: unknown[][];
  row_count: number;
}

/** One point or bar of GET /products/:name/aggregate. */
export interface AggBucket {
  label: string;
  start?: string; // the instant the bucket starts (series over time)
  lo?: number; // histogram bin [lo, hi)
  hi?: number;
  value: number | null;
  rows: number;
}

/** A chart's numbers computed in the warehouse over the whole window. */
export interface Aggregation {
  product: string;
  kind: "series" | "histogram";
  x?: string;
  y?: string;
  agg: string;
  bucket?: string;
  bin_width?: number;
  zone: string;
  partitions: number;
  total_rows: number;
  rows: number;
  skipped: number;
  buckets: AggBucket[];
  describe: string;
}

export interface ProductView {
  name: string;
  pipeline?: string;
  block?: string;
  global: boolean;
  partitioning: PartitionsConfig;
  partitions: number;
  rows: number;
  latest_partition: string;
  updated_at: string;
}

export interface VersionView {
  version: number;
  current: boolean;
  run_id: string;
  code_hash: string;
  rows: number;
  created_at: string;
}

export interface ProductPartition {
  key: string;
  start: string;
  end: string;
  current: number;
  versions: VersionView[];
}

export interface PreviewResponse {
  product: string;
  window: Record<string, unknown>;
  version?: number;
  timezone: string;
  offset?: number;
  preview: Preview;
}

/** One page of a cell's output kept as the session's draft. */
export interface DraftRowsResponse {
  draft: { pipeline: string; block: string; partition: string; at: string; rows: number };
  timezone: string;
  offset: number;
  preview: Preview;
}

export type Reprocess = "missing" | "failed" | "stale" | "all";
export type PublishMode = "partition" | "atomic" | "review";

export interface BackfillSpec {
  pipeline: string;
  from: string;
  to: string;
  interval?: string;
  zone?: string;
  reprocess?: Reprocess;
  concurrency?: number;
  rate_per_min?: number;
  publish?: PublishMode;
  /** The blocks it recomputes; absent: every block. */
  blocks?: string[];
  /** Who launched it (set by the server, never by the client). */
  actor?: string;
  /** The environment's pin owner ("env:dev") a backfill staged into; absent: prod. */
  into?: string;
  /** Value dimension -> the values it targets ("@new": the keys added to a dynamic key set), as --where; absent dimension: all. */
  where?: Record<string, string[]>;
  /** The version of each dynamic dimension's key set it targets. */
  key_sets?: Record<string, number>;
}

export interface PlannedPartition {
  key: string;
  interval: string;
  start: string;
  state: string; // missing, failed, stale, current vN
  action: string; // run or skip
  reason?: string;
  products: Record<string, string>;
}

export interface Plan {
  spec: BackfillSpec;
  snapshot?: string; // the pipeline version a launch would run
  from: string;
  to: string;
  total: number;
  to_run: number;
  to_skip: number;
  by_state: Record<string, number>;
  by_product: Record<string, [number, number]>;
  products: string[] | null;
  partitions: PlannedPartition[] | null;
  rollups: PlannedPartition[] | null; // those of the page's partitions
  rollups_total?: number; // every rollup the range touches
  rollups_to_run?: number;
}

export type RunState = "queued" | "running" | "succeeded" | "failed" | "skipped" | "cancelled" | "paused" | "conflict" | "needs_attention" | "review" | "rolled_back";

/** The states a run or a backfill ends in. */
export const FINAL_STATES: ReadonlySet<string> = new Set<RunState>(["succeeded", "failed", "cancelled", "skipped", "conflict", "needs_attention", "review", "rolled_back"]);

export interface Progress {
  backfill_id: string;
  state: RunState;
  total: number;
  done: number;
  succeeded: number;
  failed: number;
  running: number;
  skipped: number;
  cancelled: number;
  conflicts?: number;
  rate_per_min: number;
  eta: number; // nanoseconds
  elapsed: number; // nanoseconds
  engine?: "interp" | "compiled"; // how the Go blocks run
}

export interface BackfillStatus {
  id: string;
  pipeline: string;
  spec: BackfillSpec;
  state: RunState;
  message?: string;
  progress: Progress;
  created_at: string;
  updated_at: string;
  in_process: boolean;
  total: number;
  partitions: number;
  snapshot: string; // the pipeline version the backfill runs
  current_snapshot?: string; // the version the files make now
  files_changed: boolean;
  // when the files changed: a plain retry reruns the backfill's version; how to run the current code
  retry_hint?: string;
  // each pipeline version that computed its partitions, from the catalog:
  // more than one after a retry with the current code
  ran?: VersionShare[];
  problem?: string;
  conflicts?: BackfillConflict[]; // not made current: newer work was
}

/** One pipeline version that computed partitions of a backfill. */
export interface VersionShare {
  snapshot: string;
  partitions: number;
}

/** A product partition a backfill did not make current because newer work was. */
export interface BackfillConflict {
  partition: string;
  run_id: string;
  product: string;
  version: number; // the backfill's, kept
  based_on: number; // planned against (0: none, -2: an earlier version)
  current: number; // the newer current version
}

export interface PartitionStatus {
  key: string;
  interval: string;
  state: RunState;
  run_id?: string;
  error?: string;
  duration_ms?: number;
}

export interface RunSummary {
  run_id: string;
  backfill_id?: string;
  pipeline: string;
  partition: string;
  state: RunState;
  error?: string;
  started_at: string;
  updated_at: string;
  duration_ms?: number;
  engine?: "interp" | "compiled"; // how the run's Go blocks ran
  /** What launched it: editor, cli, api, backfill, trigger or freshness. */
  launched?: string;
  /** Which attempt at its backfill partition the run is (each retry is a run of its own). */
  attempt?: number;
  /** Who launched it (a user's name), or its backfill's launcher. */
  actor?: string;
}

export interface BlockRun {
  block: string;
  child?: string;
  partition: string;
  state: RunState;
  attempt: number;
  rows: number;
  started_at: string;
  ended_at: string;
  duration_ms: number;
  error?: string;
  error_line?: number;
  log?: string;
  worker?: string; // the worker machine that ran it (scale-out)
  engine?: string; // how that worker ran it: interp or compiled (scale-out)
}

export interface RunDetail extends RunSummary {
  blocks: BlockRun[];
  /** The product versions the run wrote. */
  versions?: { product: string; partition: string; version: number; rows: number; current: boolean }[];
}

/** An engine state change (projects/engine Event). Block is "" for a run-level event. */
export interface EngineEvent {
  seq?: number;
  at?: string;
  run_id: string;
  backfill_id?: string;
  pipeline: string;
  partition: string;
  block?: string;
  child?: string;
  state: RunState;
  attempt?: number;
  rows?: number;
  duration_ms?: number;
  error?: string;
  error_line?: number;
  log?: string;
}

export interface Notice {
  kind: "state" | "stdout" | "log" | "progress" | "review" | string;
  event?: EngineEvent;
  progress?: Progress;
  text?: string;
  /** kind "review": a review backfill's review, pushed when its state moved on. */
  review?: BackfillReview;
}

export interface Diagnostic {
  file?: string;
  line: number;
  column: number;
  message: string;
}

/** The "error" of a websocket error message: a refusal (code) or a failed run (code "run" with kind and position). */
export interface WsErrorBody {
  code: string;
  message: string;
  kind?: string;
  file?: string;
  line?: number;
  column?: number;
  diagnostics?: Diagnostic[];
  /** "compiled" when the cell may run compiled where the interpreter failed (a fault midway, a timeout). */
  offer?: string;
}

/** Any message the server sends on the websocket. */
export interface ServerMessage {
  type: "status" | "stdout" | "log" | "result" | "error" | "event" | "subscribed" | "unsubscribed" | "pong" | string;
  id?: string;
  session?: string;
  state?: "busy" | "idle";
  pipeline?: string;
  block?: string;
  partition?: string;
  exec_id?: string;
  restarted?: boolean;
  stream?: string;
  data?: string;
  level?: string;
  msg?: string;
  time?: string;
  preview?: Preview;
  duration_ms?: number;
  entry?: string;
  stdout?: string;
  inputs?: InputOrigin[];
  item?: string; // the dynamic item the cell ran as
  engine?: string; // "compiled: <reason>" when the interpreter could not run the cell
  files?: string[];
  error?: WsErrorBody;
  topic?: string;
  notice?: Notice;
}

/** Where one upstream of an editor run came from: the session's draft, or published versions per partition. */
export interface InputOrigin {
  block: string;
  draft: boolean;
  draft_at?: string;
  product?: string;
  versions?: Record<string, number>;
}

// The review of a backfill published for review (GET /backfills/:id/review)
// and row diffs (GET /backfills/:id/diff, /products/:name/diff).

export interface RowCounts {
  changed: number;
  added: number;
  removed: number;
}

export interface ColumnSummary {
  nulls: number;
  distinct: number;
  min: string | null;
  max: string | null;
  sum?: number;
  mean?: number;
  /** The exact sum as text (DECIMAL/HUGEINT arithmetic for exact types). */
  total?: string;
  total_note?: string;
}

export interface ColumnChange {
  name: string;
  type: string;
  before: ColumnSummary | null;
  after: ColumnSummary | null;
  changed: boolean;
}

export interface SchemaChange {
  added: { name: string; type: string }[];
  removed: { name: string; type: string }[];
  retyped: { name: string; from: string; to: string }[];
}

export interface PartitionChange {
  partition: string;
  start: string;
  from_version: number;
  to_version: number;
  status: "new" | "changed" | "unchanged";
  rows_before: number;
  rows_after: number;
  counts: RowCounts;
  schema_changed?: boolean;
}

export interface ProductReview {
  block: string;
  product: string;
  changed: number;
  unchanged: number;
  new: number;
  rows_before: number;
  rows_after: number;
  counts: RowCounts;
  schema: SchemaChange;
  columns: ColumnChange[];
  keys: string[];
  key_note?: string;
  partitions: PartitionChange[];
  newer: string[];
}

export interface GateResult {
  name: string;
  kind: string;
  product?: string;
  passed: boolean;
  detail: string;
  failures?: string[];
}

export interface Promotion {
  at: string;
  only?: string;
  versions: number;
  overridden?: string[];
  /** Who promoted. */
  by?: string;
}

export interface BackfillReview {
  backfill: BackfillStatus;
  staged: number;
  products: ProductReview[];
  gates: GateResult[];
  gates_passed: boolean;
  promotions: Promotion[];
  elapsed_ms: number;
}

export interface RowChange {
  kind: "changed" | "added" | "removed";
  partition: string;
  old: unknown[] | null;
  new: unknown[] | null;
}

export interface PartitionDiff {
  product: string;
  partition: string;
  from_version: number;
  to_version: number;
  rows_before: number;
  rows_after: number;
  unchanged: boolean;
  schema: SchemaChange;
  columns: ColumnChange[];
  keys: string[];
  key_note?: string;
  counts: RowCounts;
  row_columns: string[];
  rows: RowChange[];
}

export interface PromoteResult {
  at: string;
  only?: string;
  versions: number;
  overridden?: string[];
  partitions: Record<string, number>;
  remaining: number;
  state: RunState;
  /** A dry run: nothing was switched; plan lists per product the partition keys the promote would make current. */
  dry_run?: boolean;
  plan?: Record<string, string[]>;
}

/** An environment (GET /envs): what it holds of its own. */
export interface EnvSummary {
  name: string;
  created_at: string;
  created_by?: string;
  /** Trigger firings launch their work into it too. */
  triggers: boolean;
  partitions: number;
  products: number;
  rows: number;
  /** Its latest promote not rolled back (GET /envs/:name only). */
  last_promote?: { batch: string; at: string; partitions: number };
}

/** GET /envs/:name/diff: per pipeline, the review diff of the environment against prod. */
export interface EnvDiff {
  env: string;
  partitions: number;
  gates_passed: boolean;
  elapsed_ms: number;
  pipelines: { pipeline: string; products: ProductReview[]; gates: GateResult[]; gates_passed: boolean }[];
}

/** One block's replay of one partition (engine.BlockReplay). */
export interface BlockReplay {
  block: string;
  product: string;
  status: "unchanged" | "changed" | "failed" | "skipped";
  version: number;
  error?: string;
  error_file?: string;
  error_line?: number;
  children?: number;
  diff?: PartitionDiff;
  duration_ms: number;
}

/** The replay of one stored partition (engine.PartitionReplay). */
export interface PartitionReplay {
  partition: string;
  interval: string;
  start: string;
  status: "unchanged" | "changed" | "failed";
  blocks: BlockReplay[];
  duration_ms: number;
}

/** A replay test's report (projects/replay.Report). */
export interface ReplayReport {
  pipeline: string;
  snapshot: string;
  engine: string;
  engine_note?: string;
  counts: { unchanged: number; changed: number; failed: number };
  partitions: PartitionReplay[];
  gates: { product: string; passed: boolean; changed: string[]; failed: string[] }[];
  passed: boolean;
  duration_ms: number;
}

/** A replay started through the API (GET /replays/:id). */
export interface ReplayJob {
  id: string;
  pipeline: string;
  state: "running" | "done" | "error";
  done: number;
  total: number;
  error?: string;
  started_at: string;
  report?: ReplayReport;
}
