// Package login is Strata's optional browser login through an OpenID
// Connect provider: the authorization-code flow with PKCE, state and nonce,
// and the signed session cookie that stands for the user afterwards.
//
// It owns the protocol and the cookies, nothing else: which routes need
// which role is server/auth's table, and the server adapts the three
// endpoints (/auth/login, /auth/callback, /auth/logout) to echo. Tokens
// keep working beside a session: the API, the CLI and workers send a
// bearer token and never meet this package.
//
// Nothing the provider hands over (code, access token, ID token) is kept
// or logged: the callback verifies the ID token, maps its claims to a
// Strata user and role, and keeps only that name and role, signed, in the
// session cookie.
package login
