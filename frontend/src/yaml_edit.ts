// Edits a block's upstream list in the pipeline file's text, line by line,
// so comments and layout elsewhere stay as the user wrote them. The server
// validates the result on PUT /pipelines/:id like any save.

const ID_LINE = /^(\s*)-\s+id:\s*["']?([A-Za-z0-9_\-]+)["']?\s*(#.*)?$/;

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** Formats a flow list: [a, b]. */
function flow(items: string[]): string {
  return `[${items.join(", ")}]`;
}

/**
 * Returns the pipeline text with block id's upstream set to upstream
 * (removed when empty). Throws when the block is not found as "- id: <id>".
 */
export function setUpstream(yaml: string, id: string, upstream: string[]): string {
  const lines = yaml.split("\n");
  let at = -1,
    dash = 0;
  for (let i = 0; i < lines.length; i++) {
    const m = ID_LINE.exec(lines[i]);
    if (m && m[2] === id) {
      at = i;
      dash = m[1].length;
      break;
    }
  }
  if (at < 0) throw new Error(`block ${id} is not listed as "- id: ${id}" in the pipeline file`);
  const keyIndent = dash + 2;
  // The entry runs until a line at or left of the dash (the next entry or the next top-level key).
  let end = at + 1;
  while (end < lines.length) {
    const l = lines[end];
    if (l.trim() !== "" && !l.trimStart().startsWith("#") && indentOf(l) <= dash) break;
    end++;
  }
  let up = -1,
    upEnd = -1;
  for (let i = at + 1; i < end; i++) {
    if (indentOf(lines[i]) === keyIndent && /^\s*upstream\s*:/.test(lines[i])) {
      up = i;
      upEnd = i + 1;
      // A block-style list continues on more-indented "- x" lines.
      while (upEnd < end && (lines[upEnd].trim() === "" ? false : indentOf(lines[upEnd]) > keyIndent || /^\s*-\s/.test(lines[upEnd]) && indentOf(lines[upEnd]) >= keyIndent)) upEnd++;
      break;
    }
  }
  const newLine = " ".repeat(keyIndent) + "upstream: " + flow(upstream);
  if (up >= 0) {
    if (upstream.length) lines.splice(up, upEnd - up, newLine);
    else lines.splice(up, upEnd - up);
  } else if (upstream.length) {
    lines.splice(at + 1, 0, newLine);
  }
  return lines.join("\n");
}

/** Reads block id's upstream list from the text (flow or block style); [] when absent. */
export function getUpstream(yaml: string, id: string): string[] {
  const lines = yaml.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const m = ID_LINE.exec(lines[i]);
    if (!m || m[2] !== id) continue;
    const keyIndent = m[1].length + 2;
    for (let j = i + 1; j < lines.length; j++) {
      const l = lines[j];
      if (l.trim() !== "" && indentOf(l) <= m[1].length) break;
      const u = /^\s*upstream\s*:\s*(.*)$/.exec(l);
      if (u && indentOf(l) === keyIndent) {
        const rest = u[1].replace(/#.*$/, "").trim();
        if (rest.startsWith("[")) return rest.slice(1, rest.lastIndexOf("]")).split(",").map((s) => s.trim().replace(/^["']|["']$/g, "")).filter(Boolean);
        const out: string[] = [];
        for (let k = j + 1; k < lines.length && /^\s*-\s/.test(lines[k]) && indentOf(lines[k]) >= keyIndent; k++) out.push(lines[k].trim().slice(1).trim().replace(/^["']|["']$/g, ""));
        return out;
      }
    }
    return [];
  }
  return [];
}
