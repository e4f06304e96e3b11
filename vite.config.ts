// Vite builds frontend/src into frontend/dist, which the Go binary embeds
// (frontend/embed.go). dist is committed, so `go build ./cmd/strata` and
// `go install` serve the UI without npm; the build is deterministic
// (content-hashed names, no timestamps) and `make check-dist` verifies it. `npm run dev` proxies the API to a running
// `strata start` (STRATA_URL, default http://127.0.0.1:6789).
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { defineConfig } from "vite";

// STRATA_DIST_OUT builds elsewhere: `make check-dist` compares a fresh
// build with the committed frontend/dist.
const dist = process.env.STRATA_DIST_OUT ? resolve(process.env.STRATA_DIST_OUT) : resolve(__dirname, "frontend/dist");
const server = process.env.STRATA_URL ?? "http://127.0.0.1:6789";

export default defineConfig({
  root: resolve(__dirname, "frontend"),
  base: "/",
  build: {
    outDir: dist,
    emptyOutDir: true,
    target: "es2022",
    reportCompressedSize: true,
    chunkSizeWarningLimit: 1200,
  },
  server: {
    proxy: {
      "/api/v1/ws": { target: server.replace(/^http/, "ws"), ws: true },
      "/api": { target: server, changeOrigin: true },
    },
  },
  plugins: [
    {
      // emptyOutDir removes dist/.gitkeep, which git tracks so `go build`
      // works before npm; put it back.
      name: "strata-keep-gitkeep",
      closeBundle() {
        writeFileSync(resolve(dist, ".gitkeep"), "");
      },
    },
  ],
});
