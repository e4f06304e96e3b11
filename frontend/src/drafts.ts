// Unsaved cell text kept in the browser (localStorage), per project and
// block, so a reload, a crash or a navigation never loses an edit. The key
// names the server (host:port, one project per `strata start`), the
// pipeline and the block; a draft is dropped once saved or reverted.

export interface TextDraft {
  text: string;
  /** The file's etag the edit started from, to tell whether the file changed since. */
  base: string;
  /** When the draft was last written (ms since the epoch). */
  at: number;
}

const PREFIX = "strata.draft:";

export function draftKey(project: string, pipeline: string, block: string): string {
  return `${PREFIX}${project}:${pipeline}/${block}`;
}

export class DraftStore {
  constructor(private readonly storage: Storage | undefined = globalThis.localStorage) {}

  get(key: string): TextDraft | undefined {
    try {
      const v = this.storage?.getItem(key);
      if (!v) return undefined;
      const d = JSON.parse(v) as TextDraft;
      return typeof d.text === "string" ? d : undefined;
    } catch {
      return undefined;
    }
  }

  put(key: string, d: TextDraft): void {
    try {
      this.storage?.setItem(key, JSON.stringify(d));
    } catch {
      /* storage full or disabled: the beforeunload prompt still guards the edit */
    }
  }

  drop(key: string): void {
    try {
      this.storage?.removeItem(key);
    } catch {
      /* ignore */
    }
  }
}

/** What to do with a stored draft when a cell loads the file: restore it unless it equals the file. */
export function shouldRestore(d: TextDraft | undefined, fileText: string): d is TextDraft {
  return !!d && d.text !== fileText;
}
