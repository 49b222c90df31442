import { afterEach, describe, expect, it } from "vitest";
import { projectRoot } from "../../scripts/start/entrypoints.js";
import { migrationNames, migrationsApplied } from "../../scripts/start/migrations.js";
import { ownDatabase } from "./project-copy.js";

// `npm start` skips `prisma migrate deploy` when this says the database is at the latest migration,
// and runs it (which then applies, or says what is wrong) whenever it says not.
describe("migrationsApplied", () => {
  const made: Awaited<ReturnType<typeof ownDatabase>>[] = [];
  const database = async () => {
    const own = await ownDatabase();
    made.push(own);
    return own;
  };
  afterEach(async () => {
    await Promise.all(made.splice(0).map((own) => own.drop()));
  });

  it("is true for a database that applied every migration of the project", async () => {
    const { url } = await database();
    expect(await migrationsApplied(projectRoot, url)).toBe(true);
  });

  it("is false when the newest migration is pending", async () => {
    const own = await database();
    const newest = (await migrationNames(projectRoot)).sort().at(-1)!;
    await own.query("DELETE FROM _prisma_migrations WHERE migration_name = $1", [newest]);
    expect(await migrationsApplied(projectRoot, own.url)).toBe(false);
  });

  it("is false when a migration failed, even though every name is recorded", async () => {
    const own = await database();
    const [first] = (await migrationNames(projectRoot)).sort();
    await own.query(
      `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, applied_steps_count)
       VALUES (gen_random_uuid()::text, 'x', $1, now(), 0)`,
      [first],
    );
    expect(await migrationsApplied(projectRoot, own.url)).toBe(false);
  });

  it("is true again once a failed migration is marked rolled back and applied since", async () => {
    const own = await database();
    const [first] = (await migrationNames(projectRoot)).sort();
    await own.query(
      `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, rolled_back_at, applied_steps_count)
       VALUES (gen_random_uuid()::text, 'x', $1, now(), now(), 0)`,
      [first],
    );
    expect(await migrationsApplied(projectRoot, own.url)).toBe(true);
  });

  it("is false for a database Prisma never migrated, and for one that cannot be reached", async () => {
    const own = await database();
    await own.query("DROP TABLE _prisma_migrations");
    expect(await migrationsApplied(projectRoot, own.url)).toBe(false);
    expect(await migrationsApplied(projectRoot, "postgresql://postgres@127.0.0.1:1/nowhere")).toBe(false);
  });
});
