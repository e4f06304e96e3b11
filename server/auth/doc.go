// Package auth owns who may do what on a Strata server: the named users and
// their tokens (users_store.go), the four roles (role.go), and the one table
// that gives every HTTP route and every websocket message the least role it
// needs (route_roles.go).
//
// Roles are checked where requests enter the server (server's middleware
// and websocket dispatch), never inside the engine: the engine is handed the
// actor's name and records it. This package knows nothing of echo or of the
// engine; it maps names to roles and tokens to users.
//
// # Tokens
//
// A user's token is 32 random bytes, shown once when the user is added. Only
// its SHA-256 is stored, in .strata/users.json (0600), a file rather than a
// warehouse table because the warehouse is held open by the running server
// (DuckDB allows one writing process) while `strata users add` must work
// beside it; the server notices the file changed and reloads it, so a
// revoked token stops working on its next request. A presented token is
// hashed and compared with every stored hash in constant time.
//
// The single token of `strata start` (and --no-auth on loopback) is the
// admin of a one-person install, named Owner.
package auth
