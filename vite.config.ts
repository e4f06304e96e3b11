// Vite builds frontend/src into frontend/dist, which the Go binary embeds
// (frontend/embed.go). `npm run dev` proxies the API to a running
// `strata start` (STRATA_URL, default http://127.0.0.1:6789).
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { defineConfig } from "vite";

const dist = resolve(__dirname, "frontend/dist");
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
