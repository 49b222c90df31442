/// <reference types="vite/client" />
import { beforeAll, describe, expect, it } from "vitest";
import { pool } from "../../src/db.js";
import { declaredStatements } from "../../src/sql/statements.js";
import { columnName } from "../../src/sql/table.js";
import * as tables from "../../src/sql/tables.js";
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
  udt_name: string;
  is_nullable: "YES" | "NO";
}

const typeName = (sqlType: string): string =>
  ({ "timestamp(3)": "timestamp", int: "int4", bigint: "int8", boolean: "bool", float8: "float8" })[sqlType] ??
  (sqlType.endsWith("[]") ? `_${typeName(sqlType.slice(0, -2))}` : sqlType.replaceAll('"', ""));

const acceptsNull = (column: { decode(value: unknown, where: string): unknown }) => {
  try {
    column.decode(null, "");
    return true;
  } catch {
    return false;
  }
};

describe("rows typed from the schema", () => {
  it.each(Object.entries(tables))(
    "%s: one column per column of the migrated table, of its type and nullability",
    async (_, table) => {
      const { rows } = await pool.query<DatabaseColumn>(
        "SELECT column_name, udt_name, is_nullable FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1",
        [table.name],
      );
      // Prisma creates its scalar lists without NOT NULL, and never writes NULL to them.
      const inDatabase = rows.map((row) => (row.udt_name.startsWith("_") ? { ...row, is_nullable: "NO" } : row));
      const columns: Record<string, { sqlType: string; decode(value: unknown, where: string): unknown }> = table.columns;
      const described = Object.entries(columns).map(([field, column]) => ({
        column_name: columnName(field),
        udt_name: typeName(column.sqlType),
        is_nullable: acceptsNull(column) ? "YES" : "NO",
      }));
      expect(described.sort((a, b) => a.column_name.localeCompare(b.column_name))).toEqual(
        inDatabase.sort((a, b) => a.column_name.localeCompare(b.column_name)),
      );
    },
  );

  it("no module declares a statement of its own: every statement is the query builder's, typed from the schema", () => {
    expect(declaredStatements.map(({ text }) => text)).toEqual([]);
  });

  it("every declared statement selects exactly the columns its row type names", async () => {
    const client = await pool.connect();
    try {
      for (const { text, shape } of declaredStatements) {
        const columns = await describeColumns(client, text).catch((error: Error) => [`refused: ${error.message}`]);
        expect({ text, columns: [...columns].sort() }).toEqual({ text, columns: [...shape.names].sort() });
      }
    } finally {
      client.release();
    }
  });
});
