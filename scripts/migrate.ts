/**
 * Migrations without downloaded engines (Prisma's schema engine as WebAssembly):
 *   npm run db:migrate                  apply pending migrations
 *   npm run db:migrate -- --create NAME create a migration from schema changes, then apply it
 *   npm run db:migrate -- --check       exit 1 when the schema has changes no migration holds
 * Uses DATABASE_URL, or the embedded PostgreSQL when it is unset.
 */
import { ensureDatabase, MIGRATIONS_DIR, SCHEMA_PATH } from "./database/ensure";
import { createMigration, diffMigrationsAgainstSchema } from "./database/migrate-engine";
import { exitOnConfigError } from "./lib/product";
import { labeller } from "./lib/supervisor";

const log = labeller("migrate", 2);
const args = process.argv.slice(2);
const createAt = args.indexOf("--create");
const name = createAt >= 0 ? args[createAt + 1] : undefined;
if (createAt >= 0 && !name?.match(/^[a-z0-9_]+$/i)) {
  process.stderr.write("usage: npm run db:migrate -- --create <name> (letters, digits and _)\n");
  process.exit(2);
}

let database;
try {
  database = await ensureDatabase({ log });
} catch (error) {
  exitOnConfigError(error, "migrate");
}
let code = 0;
try {
  if (args.includes("--check")) {
    const sql = await diffMigrationsAgainstSchema({
      databaseUrl: database.url,
      schemaPath: SCHEMA_PATH,
      migrationsDir: MIGRATIONS_DIR,
    });
    if (sql.trim()) {
      log("prisma/schema.prisma has changes that no migration holds; run: npm run db:migrate -- --create <name>");
      process.stdout.write(`${sql}\n`);
      code = 1;
    } else log("migrations match the schema");
  } else if (name) {
    const result = await createMigration({
      databaseUrl: database.url,
      schemaPath: SCHEMA_PATH,
      migrationsDir: MIGRATIONS_DIR,
      name,
    });
    if (!result.created) log("no schema changes: nothing to create");
    else {
      log(`created prisma/migrations/${result.created}/migration.sql`);
      const again = await ensureDatabase({ log });
      if (again.embedded?.owned) await again.embedded.stop();
    }
  } else {
    log(database.applied.length ? `applied ${database.applied.length} migration(s)` : "database is up to date");
  }
} finally {
  if (database.embedded?.owned) await database.embedded.stop();
}
process.exit(code);
