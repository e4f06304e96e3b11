// The "Blocks" choice of the backfill launch form: every block (the
// default), or a subset the backfill recomputes (Dagster's asset subset).
// What a subset means is said where it is chosen, as the engine does it
// (projects/engine/backfill_subset.go): the blocks left out are not run, a
// block of the subset reads their current versions, and a block left out
// downstream of it becomes stale.
import { html, nothing, type TemplateResult } from "lit-html";
import type { BlockView } from "../types";

/** The blocks a backfill can target: every block but exports. */
export function subsetCandidates(blocks: BlockView[]): BlockView[] {
  return blocks.filter((b) => b.entry !== "export");
}

/** The left-out blocks downstream of the chosen ones: they turn stale. */
export function staleDownstream(blocks: BlockView[], chosen: string[]): string[] {
  const set = new Set(chosen);
  const hit = new Set<string>();
  let grew = true;
  while (grew) {
    grew = false;
    for (const b of blocks) {
      if (set.has(b.id) || hit.has(b.id)) continue;
      if (b.upstream.some((u) => set.has(u) || hit.has(u))) {
        hit.add(b.id);
        grew = true;
      }
    }
  }
  return blocks.filter((b) => hit.has(b.id) && b.entry !== "export").map((b) => b.id);
}

/** The field: a checkbox per block; chosen undefined means every block. */
export function blockSubsetField(blocks: BlockView[], chosen: string[] | undefined, set: (ids: string[] | undefined) => void): TemplateResult {
  const all = subsetCandidates(blocks);
  const on = new Set(chosen ?? all.map((b) => b.id));
  const toggle = (id: string, checked: boolean) => {
    if (checked) on.add(id);
    else on.delete(id);
    const ids = all.map((b) => b.id).filter((x) => on.has(x));
    set(ids.length === all.length ? undefined : ids);
  };
  const stale = chosen ? staleDownstream(blocks, chosen) : [];
  return html`<fieldset class="bf-blocks" data-testid="bf-blocks">
    <legend>Blocks <span class="muted small">${chosen ? `${chosen.length} of ${all.length}` : "all"}</span></legend>
    ${all.map(
      (b) => html`<label class="mono small"><input type="checkbox" data-testid=${`bf-block-${b.id}`} .checked=${on.has(b.id)}
          @change=${(e: Event) => toggle(b.id, (e.target as HTMLInputElement).checked)} />${b.id}</label>`,
    )}
    ${chosen
      ? html`<p class="muted small" data-testid="bf-blocks-note">
          Only the checked blocks run. The others are not run: a checked block reads their current versions${stale.length
            ? html`, and <b>${stale.join(", ")}</b> ${stale.length === 1 ? "keeps its versions, which become" : "keep their versions, which become"} stale (a later backfill with reprocess stale recomputes ${stale.length === 1 ? "it" : "them"})`
            : nothing}.
        </p>`
      : nothing}
  </fieldset>`;
}
