/// <reference types="vite/client" />
/**
 * The statements against the migrated database: the tables the query builder reads rows of (as the
 * schema's datamodel describes them, src/sql/rows.ts) have those columns, and every statement
 * compiled once (src/sql/compiled.ts) parses and plans there. Nothing runs.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { database, pool } from "../../src/db.js";
import { declaredStatements } from "../../src/sql/compiled.js";
import { schemaTables } from "../../src/sql/rows.js";
import { describeColumns } from "./describe.js";

// Every module that may declare a statement, so that `declaredStatements` holds them all.
beforeAll(async () => {
  const modules = import.meta.glob([
    "../../src/domain/**/*.ts",
    "../../src/transport/**/*.ts",
    "../../worker/**/*.ts",
    "!**/index.ts",
    "!../../worker/health-check.ts",
  ]);
  await Promise.all(Object.values(modules).map((load) => load()));
});

/** A column of the migrated database, as information_schema tells it. */
interface DatabaseColumn {
  column_name: string;
  is_nullable: "YES" | "NO";
  udt_name: string;
}

describe("rows typed from the schema", () => {
  it.each(schemaTables().map((table) => [table.sqlName, table] as const))(
    "%s: one column per field of the schema's model, as nullable as the migrated table's",
    async (_, { sqlName, columns }) => {
      const { rows } = await pool.query<DatabaseColumn>(
        "SELECT column_name, is_nullable, udt_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1",
        [sqlName],
      );
      // Prisma creates its scalar lists without NOT NULL, and never writes NULL to them.
      const inDatabase = rows.map((row) => ({
        name: row.column_name,
        nullable: row.is_nullable === "YES" && !row.udt_name.startsWith("_"),
      }));
      const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
      expect([...columns].sort(byName)).toEqual(inDatabase.sort(byName));
    },
  );

  it("every statement compiled once parses and plans against the migrated database", async () => {
    expect(declaredStatements.length).toBeGreaterThan(20);
    const client = await pool.connect();
    try {
      for (const textOf of declaredStatements) {
        const text = textOf(database);
        const refused = await describeColumns(client, text).then(
          () => null,
          (error: Error) => error.message,
        );
        expect({ text, refused }).toEqual({ text, refused: null });
      }
    } finally {
      client.release();
    }
  });
});
