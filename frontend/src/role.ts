// The caller's role, from GET /api/v1/me. The server refuses what a role
// may not do whatever the page shows; this only hides the controls a
// viewer (or an editor) would be refused, in one place: roles.css hides
// them by their data-testid when <html> lacks the can-* class.

import "./roles.css";
import { ApiError, call } from "./api";

export type Capability = "view" | "edit" | "launch" | "admin";

export interface Me {
  name: string;
  role: "viewer" | "editor" | "operator" | "admin";
  can: Capability[];
  /** Signed in through the OpenID provider (a session, not a token): the header offers to log out. */
  session?: boolean;
}

// Until /me answers (and in unit tests), everything is allowed: the server
// still refuses, and a page never flashes controls away and back.
let me: Me | undefined;

/** Whether the caller's role allows cap. */
export function can(cap: Capability): boolean {
  return me === undefined || me.can.includes(cap);
}

/** The caller, once loaded. */
export function whoAmI(): Me | undefined {
  return me;
}

/** Loads the caller's role and marks <html> with it. Not signed in: with browser login
 * configured the page goes to the provider and comes back here; else everything stays as it is. */
export async function loadRole(): Promise<void> {
  try {
    me = await call<Me>("GET", "/me");
  } catch (e) {
    const login = e instanceof ApiError && e.status === 401 ? (e.details as { login?: string } | undefined)?.login : undefined;
    if (login) location.assign(`${login}?next=${encodeURIComponent(location.pathname + location.search)}`);
    return;
  }
  const root = document.documentElement;
  root.dataset.role = me.role;
  root.dataset.user = me.name;
  for (const cap of ["edit", "launch", "admin"] as const) root.classList.toggle(`can-${cap}`, me.can.includes(cap));
  root.classList.add("role-known");
}

/** Ends the browser's session and shows the login again. */
export async function logout(): Promise<void> {
  await fetch("/auth/logout", { method: "POST", credentials: "same-origin" });
  location.assign("/");
}
