// Browser login through a real OpenID Connect provider (Ory Hydra, built by
// `make setup`): Chromium opens Strata with no token, the page goes to
// /auth/login, Hydra, the test's login and consent app, back to
// /auth/callback and to the page it asked for, signed in as the user the
// provider named, with the role of the project's user of that name; "Log
// out" ends the session. Skipped (outside CI) without the hydra binary.

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { eventually, freePort, launchBrowser, screenshot, startServer } from "./harness.mjs";

const HYDRA = process.env.STRATA_HYDRA ?? join(homedir(), ".cache/strata/tools/hydra-v2.3.0/hydra");
const missing = !existsSync(HYDRA);
if (missing && process.env.CI === "true") throw new Error(`no hydra at ${HYDRA}: make setup builds it`);

let hydra, app, server, browser;
let user = { subject: "ana", claims: { email: "ana@example.com" } };
let admin;

async function hydraAdmin(method, path, body) {
  const r = await fetch(admin + path, { method, headers: { "Content-Type": "application/json" }, body: body && JSON.stringify(body) });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text}`);
  return JSON.parse(text);
}

before(async () => {
  if (missing) return;
  // The login and consent pages Hydra delegates to: they accept whoever `user` is.
  app = createServer(async (req, res) => {
    const u = new URL(req.url, "http://x");
    try {
      let out;
      if (u.pathname === "/login") {
        const ch = encodeURIComponent(u.searchParams.get("login_challenge"));
        out = user
          ? await hydraAdmin("PUT", `/admin/oauth2/auth/requests/login/accept?login_challenge=${ch}`, { subject: user.subject })
          : await hydraAdmin("PUT", `/admin/oauth2/auth/requests/login/reject?login_challenge=${ch}`, { error: "access_denied", error_description: "cancelled" });
      } else {
        const ch = encodeURIComponent(u.searchParams.get("consent_challenge"));
        const r = await hydraAdmin("GET", `/admin/oauth2/auth/requests/consent?consent_challenge=${ch}`);
        out = await hydraAdmin("PUT", `/admin/oauth2/auth/requests/consent/accept?consent_challenge=${ch}`, {
          grant_scope: r.requested_scope,
          grant_access_token_audience: r.requested_access_token_audience,
          session: { id_token: user.claims },
        });
      }
      res.writeHead(302, { Location: out.redirect_to }).end();
    } catch (e) {
      res.writeHead(502).end(String(e));
    }
  });
  await new Promise((ok) => app.listen(0, "127.0.0.1", ok));
  const appURL = `http://127.0.0.1:${app.address().port}`;
  const [pub, adm, port] = [await freePort(), await freePort(), await freePort()];
  const issuer = `http://127.0.0.1:${pub}/`;
  admin = `http://127.0.0.1:${adm}`;
  let hydraLog = "";
  hydra = spawn(HYDRA, ["serve", "all", "--dev", "--sqa-opt-out"], {
    env: {
      ...process.env, DSN: "memory", URLS_SELF_ISSUER: issuer, URLS_LOGIN: `${appURL}/login`, URLS_CONSENT: `${appURL}/consent`,
      SECRETS_SYSTEM: "e2e-login-secrets-system-0123456789", SERVE_PUBLIC_HOST: "127.0.0.1", SERVE_PUBLIC_PORT: String(pub),
      SERVE_ADMIN_HOST: "127.0.0.1", SERVE_ADMIN_PORT: String(adm), OAUTH2_PKCE_ENFORCED: "true",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  hydra.stdout.on("data", (d) => (hydraLog += d));
  hydra.stderr.on("data", (d) => (hydraLog += d));
  await eventually(async () => (await fetch(admin + "/health/ready").catch(() => ({ ok: false }))).ok, 60_000, `hydra ready:\n${hydraLog}`);
  const base = `http://127.0.0.1:${port}`;
  const client = await hydraAdmin("POST", "/admin/clients", {
    client_secret: "e2e-client-secret-0123456789", grant_types: ["authorization_code"], response_types: ["code"],
    scope: "openid email", redirect_uris: [`${base}/auth/callback`], token_endpoint_auth_method: "client_secret_basic",
  });
  process.env.STRATA_E2E_OIDC_SECRET = "e2e-client-secret-0123456789";
  server = await startServer("login", ["--login-issuer", issuer, "--login-client-id", client.client_id,
    "--login-client-secret-env", "STRATA_E2E_OIDC_SECRET", "--login-redirect-url", `${base}/auth/callback`], { port });
  // ana's role: the project's user of her name.
  await server.api("POST", "/users", { name: "ana@example.com", role: "operator" });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  hydra?.kill("SIGTERM");
  app?.close();
});

test("a browser without a token logs in at the provider, lands on its page, and logs out", { skip: missing && `no hydra at ${HYDRA}` }, async () => {
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  const page = await context.newPage();
  page.on("pageerror", (e) => console.error("page error:", e.message));
  await page.goto(server.base + "/backfills");
  await eventually(async () => (await page.locator('[data-testid="whoami"]').innerText().catch(() => "")).includes("ana@example.com · operator"), 30_000, "signed in as ana");
  assert.equal(new URL(page.url()).pathname, "/backfills");
  const cookies = await context.cookies(server.base);
  const session = cookies.find((c) => c.name.startsWith("strata_session_"));
  assert.ok(session && session.httpOnly && session.sameSite === "Lax", JSON.stringify(cookies));
  assert.ok(!cookies.some((c) => c.name.startsWith("strata_token")), "no token cookie: the session is the credential");
  await screenshot(page, "login-signed-in");

  // Log out; the provider now says no, so the page cannot sign in again.
  user = null;
  await page.locator('[data-testid="logout"]').click();
  await eventually(async () => (await page.content()).includes("login_denied"), 30_000, "the refused login after logout");
  const me = await page.evaluate(async () => (await fetch("/api/v1/me")).status);
  assert.equal(me, 401);
});
