// The app shell: top bar (pages, time-zone setting, connection state), a
// tiny path router (the server answers every extensionless path with
// index.html) and the render loop: pages call app.update() and the shell
// re-renders once per frame with lit-html, which touches only what changed.

import { html, nothing, render, type TemplateResult } from "lit-html";
import { api } from "./api";
import { settings } from "./settings";
import { logout, whoAmI } from "./role";
import { browserZone, ZONE_MODES, type ZoneMode } from "./time";
import { ws } from "./ws";
import { currentEnv, knownEnvs, onEnvChange, setEnv } from "./env";

export interface Page {
  title: string;
  render(): TemplateResult;
  destroy?(): void;
  /** The pipeline zone this page shows, for the "pipeline zone" setting. */
  pipelineZone?(): string | undefined;
  /** What is unsaved on the page ("2 cells"), asked about before leaving it. */
  unsaved?(): string | undefined;
}

type Route = { pattern: RegExp; make: (m: RegExpExecArray, q: URLSearchParams) => Page | Promise<Page> };

class App {
  private routes: Route[] = [];
  private page?: Page;
  private root!: HTMLElement;
  private scheduled = false;
  private navSeq = 0;
  notice = "";
  /**
   * The zone of the project's pipelines when they all share one: the
   * "pipeline zone" of pages that show several pipelines (Runs, Products),
   * so every page reads times in one zone. UTC when they differ.
   */
  projectZone?: string;

  route(pattern: RegExp, make: Route["make"]): void {
    this.routes.push({ pattern, make });
  }

  start(root: HTMLElement): void {
    this.root = root;
    document.addEventListener("click", (e) => {
      const a = (e.target as Element).closest?.("a");
      if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || a.target) return;
      const url = new URL(a.href, location.href);
      if (url.origin !== location.origin || url.pathname.startsWith("/api/")) return;
      e.preventDefault();
      const unsaved = this.page?.unsaved?.();
      if (unsaved && url.pathname !== location.pathname && !confirm(`Leave this page? ${unsaved} unsaved (kept as a draft in this browser).`)) return;
      this.go(url.pathname + url.search + url.hash);
    });
    // A reload or closing the tab with unsaved edits asks first.
    addEventListener("beforeunload", (e) => {
      if (!this.page?.unsaved?.()) return;
      e.preventDefault();
      e.returnValue = "";
    });
    addEventListener("popstate", () => this.load());
    settings.onChange(() => this.update());
    onEnvChange(() => this.update());
    ws.onConn(() => this.update());
    ws.onProject(() => void this.loadProjectZone());
    ws.connect();
    void this.loadProjectZone();
    void this.load();
  }

  private async loadProjectZone(): Promise<void> {
    try {
      const zones = new Set((await api.pipelines()).pipelines.filter((p) => p.partitions.interval !== "none").map((p) => p.partitions.timezone));
      this.projectZone = zones.size === 1 ? [...zones][0] : undefined;
      this.update();
    } catch {
      /* not signed in yet, or no project: UTC */
    }
  }

  go(path: string, replace = false): void {
    if (replace) history.replaceState(null, "", path);
    else history.pushState(null, "", path);
    void this.load();
  }

  private async load(): Promise<void> {
    const seq = ++this.navSeq;
    const path = decodeURIComponent(location.pathname);
    const q = new URLSearchParams(location.search);
    for (const r of this.routes) {
      const m = r.pattern.exec(path);
      if (!m) continue;
      const next = await r.make(m, q);
      if (seq !== this.navSeq) {
        next.destroy?.();
        return;
      }
      this.page?.destroy?.();
      this.page = next;
      document.title = this.title(next.title);
      this.update();
      return;
    }
    this.page?.destroy?.();
    this.page = { title: "Not found", render: () => html`<main class="page"><h1>Not found</h1><p>No page at ${path}. <a href="/">Home</a></p></main>` };
    this.update();
  }

  /** The tab's title: an environment's name first, so that even a tab strip says it. */
  private title(page: string): string {
    return (currentEnv() ? `[${currentEnv()}] ` : "") + `${page} · Strata`;
  }

  /**
   * Switches the tab to another environment and reloads the page in it:
   * everything it shows is read again.
   */
  switchEnv(name: string): void {
    setEnv(name);
    const u = new URL(location.href);
    u.searchParams.delete("env");
    this.go(u.pathname + u.search + u.hash, true);
  }

  update(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.paint();
    });
  }

  /** Renders now instead of on the next animation frame (the pipeline page paints a finished run at once). */
  paint(): void {
    if (this.page) document.title = this.title(this.page.title);
    render(this.shell(), this.root);
  }

  private shell(): TemplateResult {
    const mode = settings.zoneMode;
    const pz = this.page?.pipelineZone?.() ?? this.projectZone;
    const path = location.pathname;
    const label: Record<ZoneMode, string> = {
      local: `Browser (${browserZone()})`,
      utc: "UTC",
      pipeline: `Pipeline zone${pz ? ` (${pz})` : ""}`,
    };
    const running = ws.execs.running();
    return html`<header class="topbar">
        <a class="brand" href="/">Strata</a>
        <nav>
          <a href="/" class=${path === "/" || path.startsWith("/pipelines") ? "active" : ""}>Pipelines</a>
          <a href="/products" class=${path.startsWith("/products") ? "active" : ""}>Products</a>
          <a href="/backfills" class=${path.startsWith("/backfills") ? "active" : ""}>Backfills</a>
          <a href="/runs" class=${path.startsWith("/runs") ? "active" : ""}>Runs</a>
          ${whoAmI()?.can.includes("admin") ? html`<a href="/users" data-testid="nav-users" class=${path.startsWith("/users") ? "active" : ""}>People</a>` : nothing}
        </nav>
        <a href="/envs" class=${path.startsWith("/envs") ? "active" : ""} data-testid="nav-envs">Environments</a>
        <span class="spacer"></span>
        <label class="env-switch" title="The environment this tab works in: runs, backfills, cells and previews go there">
          Env
          <select data-testid="env-switch" @change=${(e: Event) => this.switchEnv((e.target as HTMLSelectElement).value)}>
            <option value="" ?selected=${currentEnv() === ""}>prod</option>
            ${knownEnvs().map((env) => html`<option value=${env.name} ?selected=${env.name === currentEnv()}>${env.name}</option>`)}
            ${currentEnv() && !knownEnvs().some((env) => env.name === currentEnv()) ? html`<option value=${currentEnv()} selected>${currentEnv()}</option>` : nothing}
          </select>
        </label>
        ${whoAmI() ? html`<span class="whoami" data-testid="whoami" title=${whoAmI()!.session ? "signed in through the login provider" : "signed in with this user's token"}>${whoAmI()!.name} · ${whoAmI()!.role}</span>` : nothing}
        ${whoAmI()?.session ? html`<button class="logout" data-testid="logout" @click=${() => void logout()}>Log out</button>` : nothing}
        ${running ? html`<span class="busy-pill" title="a block is running in your editor session">● running ${running.block}</span>` : nothing}
        <label class="zone-setting" title="Zone used to show timestamps (remembered in this browser)">
          Times in
          <select data-testid="zone-mode" @change=${(e: Event) => (settings.zoneMode = (e.target as HTMLSelectElement).value as ZoneMode)}>
            ${ZONE_MODES.map((m) => html`<option value=${m} ?selected=${m === mode}>${label[m]}</option>`)}
          </select>
        </label>
        <span class=${"conn " + ws.state} data-testid="conn" title=${ws.lastError || `websocket ${ws.state}`}>${ws.state === "open" ? "live" : ws.state}</span>
      </header>
      ${currentEnv()
        ? html`<div class="env-banner" data-testid="env-banner">
            Environment ${currentEnv()}: previews, runs, backfills and cells here read and write ${currentEnv()}, not prod. Prod is unchanged until ${currentEnv()} is promoted.
            <a href=${`/envs/${encodeURIComponent(currentEnv())}`}>Diff and promote</a>
            <a href="#" data-testid="env-leave" @click=${(e: Event) => (e.preventDefault(), this.switchEnv(""))}>Back to prod</a>
          </div>`
        : nothing}
      ${this.notice ? html`<div class="banner" @click=${() => ((this.notice = ""), this.update())}>${this.notice}</div>` : nothing}
      ${this.page ? this.page.render() : html`<main class="page"><p class="muted">Loading…</p></main>`}`;
  }

  /** The zone times are shown in on the current page. */
  zone(): string {
    return settings.zone(this.page?.pipelineZone?.() ?? this.projectZone);
  }
}

export const app = new App();
