// A line diff for the "changed elsewhere" banner: which lines the file on
// disk has that the editor does not, and the other way round. Longest common
// subsequence over lines; cells are small (hundreds of lines), so O(n·m) is fine.

export interface DiffLine {
  op: " " | "+" | "-";
  text: string;
}

/** Lines of mine → theirs: "-" only in mine, "+" only in theirs, " " in both. */
export function lineDiff(mine: string, theirs: string): DiffLine[] {
  const a = mine.split("\n");
  const b = theirs.split("\n");
  const n = a.length, m = b.length;
  const L: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) L[i][j] = a[i] === b[j] ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
  const out: DiffLine[] = [];
  let i = 0, j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ op: " ", text: a[i] });
      i++;
      j++;
    } else if (L[i + 1][j] >= L[i][j + 1]) out.push({ op: "-", text: a[i++] });
    else out.push({ op: "+", text: b[j++] });
  }
  while (i < n) out.push({ op: "-", text: a[i++] });
  while (j < m) out.push({ op: "+", text: b[j++] });
  return out;
}

/** Only the changed lines with one line of context around each change. */
export function compactDiff(d: DiffLine[], context = 1): (DiffLine | null)[] {
  const keep = d.map((l, i) => l.op !== " " || d.slice(Math.max(0, i - context), i + context + 1).some((x) => x.op !== " "));
  const out: (DiffLine | null)[] = [];
  keep.forEach((k, i) => {
    if (k) out.push(d[i]);
    else if (!out.length || out[out.length - 1] !== null) out.push(null);
  });
  return out;
}
