// Unit tests of the frontend's own logic (frontend/src/**/*.test.ts).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["frontend/src/**/*.test.ts"],
    environment: "node",
  },
});
