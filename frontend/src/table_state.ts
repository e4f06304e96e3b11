// Pure state of a result table: sort cycling on header clicks, the cell
// selection as a rectangle, and its text as TSV for the clipboard. The view
// is views/result_grid.ts; paging, sorting and filtering run on the server.

export interface SortKey {
  column: string;
  desc: boolean;
}

/** A header click: unsorted → ascending → descending → unsorted; shift adds the column as a further key. */
export function nextSort(keys: SortKey[], column: string, add: boolean): SortKey[] {
  const i = keys.findIndex((k) => k.column === column);
  const cur = i >= 0 ? keys[i] : undefined;
  const next: SortKey | undefined = !cur ? { column, desc: false } : !cur.desc ? { column, desc: true } : undefined;
  if (!add) return next ? [next] : [];
  const rest = keys.filter((k) => k.column !== column);
  if (!next) return rest;
  if (i < 0) return [...rest, next];
  const out = [...keys];
  out[i] = next;
  return out;
}

/** The server's sort parameter: "amount:desc,id". */
export function sortParam(keys: SortKey[]): string {
  return keys.map((k) => k.column + (k.desc ? ":desc" : "")).join(",");
}

export interface Cell {
  row: number;
  col: number;
}

export interface Selection {
  anchor: Cell;
  focus: Cell;
}

/** The rectangle a selection covers: [r0, r1] × [c0, c1], inclusive. */
export function selectionBounds(s: Selection): { r0: number; r1: number; c0: number; c1: number } {
  return {
    r0: Math.min(s.anchor.row, s.focus.row),
    r1: Math.max(s.anchor.row, s.focus.row),
    c0: Math.min(s.anchor.col, s.focus.col),
    c1: Math.max(s.anchor.col, s.focus.col),
  };
}

export function inSelection(s: Selection | undefined, row: number, col: number): boolean {
  if (!s) return false;
  const b = selectionBounds(s);
  return row >= b.r0 && row <= b.r1 && col >= b.c0 && col <= b.c1;
}

/** A TSV field: tabs and newlines in a value would break the grid a spreadsheet reads, so such a value is quoted as in CSV. */
export function tsvField(v: string): string {
  return /[\t\n\r"]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

/** The selected cells as TSV (text[row][col] is what the cell shows); with header, the column names come first. */
export function selectionTSV(text: string[][], names: string[], s: Selection, header = false): string {
  const b = selectionBounds(s);
  const lines: string[] = [];
  if (header) lines.push(names.slice(b.c0, b.c1 + 1).map(tsvField).join("\t"));
  for (let r = b.r0; r <= b.r1 && r < text.length; r++) lines.push(text[r].slice(b.c0, b.c1 + 1).map(tsvField).join("\t"));
  return lines.join("\n");
}

/** What the server says of a whole column (tableview.ColumnSummary). */
export interface ColumnSummary {
  name: string;
  type: string;
  rows: number;
  nulls: number;
  min?: string;
  max?: string;
  distinct?: number;
  distinct_more?: boolean;
  /** Counts of a numeric or time column in equal-width bins from min to max. */
  hist?: number[];
}

/** A header histogram's bar heights in percent of the tallest bin; a non-empty bin shows at least a sliver. */
export function histHeights(hist: number[]): number[] {
  const top = Math.max(0, ...hist);
  if (!top) return hist.map(() => 0);
  return hist.map((n) => (n ? Math.max(8, Math.round((100 * n) / top)) : 0));
}

/** The server's columns parameter: the non-empty per-column filters as a JSON object, "" with none. */
export function columnsParam(filters: Map<string, string>): string {
  const o: Record<string, string> = {};
  for (const [k, v] of filters) if (v.trim() !== "") o[k] = v;
  return Object.keys(o).length ? JSON.stringify(o) : "";
}

/** A column's summary in a header: its range or distinct count, and its nulls. */
export function summaryLine(s: ColumnSummary): string {
  const parts: string[] = [];
  if (s.min !== undefined && s.max !== undefined) parts.push(s.min === s.max ? `all ${s.min}` : `${s.min} … ${s.max}`);
  else if (s.distinct !== undefined || s.distinct_more) parts.push(`${s.distinct_more ? `${(s.distinct ?? 0).toLocaleString("en-US")}+` : (s.distinct ?? 0).toLocaleString("en-US")} distinct`);
  else if (s.rows === s.nulls) parts.push("all null");
  if (s.nulls && s.rows !== s.nulls) parts.push(`${s.nulls.toLocaleString("en-US")} null${s.nulls === 1 ? "" : "s"}`);
  else if (!s.nulls) parts.push("no nulls");
  return parts.join(" · ");
}
