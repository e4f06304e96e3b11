// The People page (admins): the project's users and their roles, adding one
// (its token is shown once, here, and never again), revoking one, and the
// newest entries of the audit trail. Everything goes through /api/v1/users
// and /api/v1/audit; the server refuses it to anyone but an admin.

import { html, nothing, type TemplateResult } from "lit-html";
import { call, errorText } from "../api";
import { app, type Page } from "../app";
import { formatInstant } from "../time";

interface User {
  name: string;
  role: string;
  created_at: string;
  created_by?: string;
  revoked_at?: string;
  revoked_by?: string;
}

interface AuditEntry {
  id: string;
  at: string;
  actor: string;
  action: string;
  target?: string;
  pipeline?: string;
  via?: string;
}

const ROLES = ["viewer", "editor", "operator", "admin"] as const;

export class UsersPage implements Page {
  title = "People";
  users: User[] = [];
  audit: AuditEntry[] = [];
  error = "";
  /** The token of the user just added: shown once. */
  created?: { name: string; token: string };

  constructor() {
    void this.load();
  }

  private async load(): Promise<void> {
    try {
      this.users = (await call<{ users: User[] }>("GET", "/users")).users;
      this.audit = (await call<{ entries: AuditEntry[] }>("GET", "/audit?limit=50")).entries;
      this.error = "";
    } catch (e) {
      this.error = errorText(e);
    }
    app.update();
  }

  private async add(e: Event): Promise<void> {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const data = new FormData(form);
    try {
      const r = await call<{ user: User; token: string }>("POST", "/users", { name: data.get("name"), role: data.get("role") });
      this.created = { name: r.user.name, token: r.token };
      form.reset();
    } catch (err) {
      this.error = errorText(err);
    }
    await this.load();
  }

  private async revoke(name: string): Promise<void> {
    if (!confirm(`Revoke ${name}? Their token stops working at once.`)) return;
    try {
      await call("DELETE", `/users/${encodeURIComponent(name)}`);
    } catch (err) {
      this.error = errorText(err);
    }
    this.created = undefined;
    await this.load();
  }

  render(): TemplateResult {
    const zone = app.zone();
    return html`<main class="page" data-testid="users-page">
      <h1>People</h1>
      ${this.error ? html`<div class="error-box" data-testid="users-error">${this.error}</div>` : nothing}
      ${this.created
        ? html`<div class="notice" data-testid="new-token">Token of <b>${this.created.name}</b>, shown this once (Strata keeps only its hash):
            <pre class="mono">${this.created.token}</pre></div>`
        : nothing}
      <form class="row" data-testid="add-user" @submit=${(e: Event) => void this.add(e)}>
        <label>Name <input name="name" required /></label>
        <label>Role <select name="role">${ROLES.map((r) => html`<option value=${r}>${r}</option>`)}</select></label>
        <button type="submit" class="primary">Add user</button>
      </form>
      <table class="table" data-testid="users-table">
        <thead><tr><th>name</th><th>role</th><th>created</th><th>state</th><th></th></tr></thead>
        <tbody>
          ${this.users.map(
            (u) => html`<tr data-user=${u.name}>
              <td>${u.name}</td><td>${u.role}</td><td class="small">${formatInstant(u.created_at, zone)}${u.created_by ? ` by ${u.created_by}` : ""}</td>
              <td>${u.revoked_at ? `revoked ${formatInstant(u.revoked_at, zone)} by ${u.revoked_by ?? "?"}` : "active"}</td>
              <td>${u.revoked_at ? nothing : html`<button class="link danger" data-testid="revoke" @click=${() => void this.revoke(u.name)}>revoke</button>`}</td>
            </tr>`,
          )}
        </tbody>
      </table>
      <h2>Audit trail</h2>
      <table class="table" data-testid="audit-table">
        <thead><tr><th>at</th><th>who</th><th>action</th><th>pipeline</th><th>target</th><th>via</th></tr></thead>
        <tbody>
          ${this.audit.map(
            (a) => html`<tr><td class="small">${formatInstant(a.at, zone)}</td><td>${a.actor}</td><td class="mono">${a.action}</td><td>${a.pipeline ?? ""}</td><td class="mono small">${a.target ?? ""}</td><td>${a.via ?? ""}</td></tr>`,
          )}
        </tbody>
      </table>
    </main>`;
  }
}
