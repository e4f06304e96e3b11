// The caller's role, from GET /api/v1/me. The server refuses what a role
// may not do whatever the page shows; this only hides the controls a
// viewer (or an editor) would be refused, in one place: roles.css hides
// them by their data-testid when <html> lacks the can-* class.

import "./roles.css";
import { call } from "./api";

export type Capability = "view" | "edit" | "launch" | "admin";

export interface Me {
  name: string;
  role: "viewer" | "editor" | "operator" | "admin";
  can: Capability[];
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

/** Loads the caller's role and marks <html> with it; a failure (not signed in) leaves everything as it is. */
export async function loadRole(): Promise<void> {
  try {
    me = await call<Me>("GET", "/me");
  } catch {
    return;
  }
  const root = document.documentElement;
  root.dataset.role = me.role;
  root.dataset.user = me.name;
  for (const cap of ["edit", "launch", "admin"] as const) root.classList.toggle(`can-${cap}`, me.can.includes(cap));
  root.classList.add("role-known");
}
