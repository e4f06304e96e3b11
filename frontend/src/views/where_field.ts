// The "Where" choice of the backfill launch form for a pipeline with value
// dimensions beside time (strata backfill --where): each dimension keeps
// every value (the default) or only some. A static dimension's values are
// checkboxes; a dynamic one's keys live in a product, so they are typed,
// comma-separated, "@new" meaning the keys added since its key set's
// previous version. The engine checks the values (projects/engine).
import { html, nothing, type TemplateResult } from "lit-html";
import type { DimConfig } from "../types";

export type Where = Record<string, string[]>;

/** The where of a dimension set to values; a static dimension with every value checked (or none) is no filter. */
export function setWhere(where: Where | undefined, d: DimConfig, values: string[]): Where | undefined {
  const out: Where = { ...where };
  const all = d.kind === "static" && (values.length === 0 || (d.values ?? []).every((v) => values.includes(v)));
  if (values.length === 0 || all) delete out[d.name];
  else out[d.name] = d.kind === "static" ? (d.values ?? []).filter((v) => values.includes(v)) : values;
  return Object.keys(out).length ? out : undefined;
}

/** Typed keys of a dynamic dimension: comma- or space-separated, blanks dropped, each once. */
export function parseKeys(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).filter(Boolean))];
}

/** The field: one line per value dimension; nothing for a time-only pipeline. */
export function whereField(dims: DimConfig[] | undefined, where: Where | undefined, set: (w: Where | undefined) => void): TemplateResult | typeof nothing {
  if (!dims?.length) return nothing;
  return html`<fieldset class="bf-where" data-testid="bf-where">
    <legend>Where <span class="muted small">${where ? Object.entries(where).map(([k, v]) => `${k} ${v.join(", ")}`).join(" · ") : "every value"}</span></legend>
    ${dims.map((d) => {
      const chosen = where?.[d.name];
      if (d.kind === "static") {
        const on = new Set(chosen ?? d.values ?? []);
        return html`<div class="small">${d.name}:
          ${(d.values ?? []).map(
            (v) => html`<label class="mono"><input type="checkbox" data-testid=${`bf-where-${d.name}-${v}`} .checked=${on.has(v)}
                @change=${(e: Event) => {
                  if ((e.target as HTMLInputElement).checked) on.add(v);
                  else on.delete(v);
                  set(setWhere(where, d, [...on]));
                }} />${v}</label>`,
          )}</div>`;
      }
      return html`<label class="small">${d.name} <span class="muted">(keys of ${d.product}.${d.column}, comma-separated; @new: the keys added since the key set's last version; empty: all)</span>
        <input data-testid=${`bf-where-${d.name}`} size="24" .value=${(chosen ?? []).join(", ")} @change=${(e: Event) => set(setWhere(where, d, parseKeys((e.target as HTMLInputElement).value)))} /></label>`;
    })}
    <p class="muted small">A backfill over some values runs and versions only those cells; the others keep what they have.</p>
  </fieldset>`;
}
