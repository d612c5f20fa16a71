// Prisma CLI configuration. The CLI would download a native schema engine for commands that
// never need it here (generate); pointing it at any existing file keeps `prisma generate` offline.
// Migrations run through the project's own WebAssembly runner (scripts/migrate.ts).
import path from "node:path";
import { defineConfig } from "prisma/config";

process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= "/bin/false";

export default defineConfig({
  schema: path.join("..", "prisma", "schema.prisma"),
  migrations: { path: path.join("..", "prisma", "migrations") },
});
