import { sql, type RawBuilder, type Selectable } from "kysely";
import type { DB } from "../generated/kysely/database.js";
import { getDatamodel } from "../generated/pothos-types.js";
import { fromUtcText } from "./query-builder.js";

/**
 * Rows a statement selects as JSON beside its own columns (a request's options, its purchase):
 * the JSON object SQL builds for a row, and the row read back from it, both from the schema's
 * fields (the datamodel Prisma generates), so no column is written twice. A timestamp travels as
 * its zone-less UTC text and an int8 as its digits (a JSON number loses those past 2^53).
 */
export type Table = keyof DB;
export type Row<T extends Table> = Selectable<DB[T]>;

type Kind = "date" | "bigint" | "plain";
interface Field {
  name: string;
  kind: Kind;
}
interface TablePlan {
  /** The table's name in the database: the model's, in snake case (the schema's `@@map` convention). */
  sqlName: string;
  fields: Field[];
  /** `json_build_object(...)` of a row, with `$alias` where its alias goes. */
  object: string;
}

const columnNames = new Map<string, string>();
/** A field's column (or a model's table): `merchantId` is `merchant_id`, the schema's `@map` convention. */
function snakeCase(name: string): string {
  let column = columnNames.get(name);
  if (column === undefined) {
    column = name.replace(/[A-Z]/g, (letter, at: number) => `${at === 0 ? "" : "_"}${letter.toLowerCase()}`);
    columnNames.set(name, column);
  }
  return column;
}

const models = getDatamodel().datamodel.models;
const plans = new Map<Table, TablePlan>();

function planOf(table: Table): TablePlan {
  let plan = plans.get(table);
  if (plan) return plan;
  const model = models[table.charAt(0).toUpperCase() + table.slice(1)];
  if (!model) throw new Error(`No model for the table ${table}`);
  const fields = model.fields
    .filter((field) => field.kind === "scalar" || field.kind === "enum")
    .map((field): Field => ({
      name: field.name,
      kind: field.type === "DateTime" ? "date" : field.type === "BigInt" ? "bigint" : "plain",
    }));
  const pairs = fields.map(({ name, kind }) => `'${name}', $alias."${snakeCase(name)}"${kind === "bigint" ? "::text" : ""}`);
  plan = { sqlName: snakeCase(table), fields, object: `json_build_object(${pairs.join(", ")})` };
  plans.set(table, plan);
  return plan;
}

/** The JSON object of the row `alias` of `table`, which `fromRowJson` reads. */
export function rowJson<T extends Table>(table: T, alias: string): RawBuilder<unknown> {
  return sql.raw(planOf(table).object.replaceAll("$alias", `"${alias}"`));
}

/**
 * The rows of `table` that `where` (SQL on the alias `x`) selects, as one JSON list ordered by
 * `orderBy` (SQL too): `[]` when there are none.
 */
export function rowsJson<T extends Table>(table: T, where: RawBuilder<unknown>, orderBy?: string): RawBuilder<unknown> {
  const { object, sqlName } = planOf(table);
  const order = orderBy ? sql.raw(` ORDER BY ${orderBy}`) : sql``;
  return sql`(SELECT coalesce(json_agg(${sql.raw(object.replaceAll("$alias", "x"))}${order}), '[]') FROM ${sql.table(sqlName)} x WHERE ${where})`;
}

/** A row of `table` from the JSON `rowJson` built. */
export function fromRowJson<T extends Table>(table: T, value: unknown): Row<T> {
  if (typeof value !== "object" || value === null) throw new Error(`Expected a ${table} row as JSON, got ${String(value)}`);
  const json = value as Record<string, unknown>;
  const row: Record<string, unknown> = {};
  for (const { name, kind } of planOf(table).fields) {
    const field = json[name];
    row[name] =
      field === null || field === undefined
        ? null
        : kind === "date"
          ? fromUtcText(field as string)
          : kind === "bigint"
            ? BigInt(field as string)
            : field;
  }
  return row as Row<T>;
}

/** The rows of `table` from the JSON list `rowsJson` built. */
export function fromRowsJson<T extends Table>(table: T, value: unknown): Row<T>[] {
  if (!Array.isArray(value)) throw new Error(`Expected a list of ${table} rows as JSON, got ${String(value)}`);
  return value.map((item) => fromRowJson(table, item));
}

/**
 * A row, or rows, to write as one JSON parameter, which `json_populate_record(set)` reads: each
 * field under its column's name, an int8 as its digits, a timestamp as ISO text (whose zone a
 * zone-less column ignores). A JSON field's own keys stay as they are.
 */
export function recordJson(rows: object | readonly object[]): string {
  return JSON.stringify(Array.isArray(rows) ? rows.map(record) : record(rows));
}

function record(row: object): Record<string, unknown> {
  const columns: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(row))
    columns[snakeCase(field)] = typeof value === "bigint" ? value.toString() : value;
  return columns;
}
