import { sql, type RawBuilder, type Selectable } from "kysely";
import type { DB } from "../generated/kysely/database.js";
import * as enums from "../generated/prisma/enums.js";
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
  /** What a value of the field must be, in JSON: the check of `fromRowJson`, and what its refusal names. */
  expected: string;
  accepts: (value: unknown) => boolean;
  required: boolean;
}

/** A row that does not hold what the schema says its table's rows hold (a statement that selects another shape). */
export class RowShapeError extends Error {
  constructor(where: string, expected: string, value: unknown) {
    super(
      `${where}: the statement gave ${value === undefined ? "no such column" : JSON.stringify(value)}, its row type says ${expected}`,
    );
  }
}

const enumValues = new Map<string, Set<unknown>>(
  Object.entries(enums).map(([name, values]) => [name, new Set(Object.values(values))]),
);
const isText = (value: unknown) => typeof value === "string";
/** How a scalar of each of the schema's types arrives in JSON (`rowJson`: int8 as digits, timestamps as text). */
const SCALARS: Record<string, { expected: string; accepts: (value: unknown) => boolean }> = {
  String: { expected: "text", accepts: isText },
  Int: { expected: "an integer", accepts: Number.isInteger },
  BigInt: { expected: "int8 (as digits)", accepts: (value) => typeof value === "string" && /^-?\d+$/.test(value) },
  DateTime: { expected: "a timestamp (as text)", accepts: isText },
  Boolean: { expected: "a boolean", accepts: (value) => typeof value === "boolean" },
  Json: { expected: "JSON", accepts: () => true },
  // to_json of bytea: `\x` and its bytes in hexadecimal.
  Bytes: {
    expected: "bytea (as \\x and hexadecimal)",
    accepts: (value) => typeof value === "string" && /^\\x[0-9a-f]*$/.test(value),
  },
};

function fieldOf(field: { name: string; type: string; isRequired: boolean; isList: boolean }): Field {
  const values = enumValues.get(field.type);
  const scalar = values
    ? { expected: `one of ${[...values].join(", ")}`, accepts: (value: unknown) => values.has(value) }
    : SCALARS[field.type];
  if (!scalar) throw new Error(`No JSON reading of the schema's type ${field.type}`);
  const accepts = field.isList ? (value: unknown) => Array.isArray(value) && value.every(scalar.accepts) : scalar.accepts;
  return {
    name: field.name,
    kind: field.type === "DateTime" ? "date" : field.type === "BigInt" ? "bigint" : "plain",
    expected: field.isList ? `a list of ${scalar.expected}` : scalar.expected,
    accepts,
    required: field.isRequired,
  };
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
  const fields = model.fields.filter((field) => field.kind === "scalar" || field.kind === "enum").map(fieldOf);
  const pairs = fields.map(({ name, kind }) => `'${name}', $alias."${snakeCase(name)}"${kind === "bigint" ? "::text" : ""}`);
  plan = { sqlName: snakeCase(table), fields, object: `json_build_object(${pairs.join(", ")})` };
  plans.set(table, plan);
  return plan;
}

/** Every table of the schema, and the columns rowJson selects of it (with whether each may be NULL). */
export const schemaTables = (): { table: Table; sqlName: string; columns: { name: string; nullable: boolean }[] }[] =>
  Object.keys(models).map((model) => {
    const table = (model.charAt(0).toLowerCase() + model.slice(1)) as Table;
    const { sqlName, fields } = planOf(table);
    return { table, sqlName, columns: fields.map((field) => ({ name: snakeCase(field.name), nullable: !field.required })) };
  });

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

/**
 * A row of `table` from the JSON `rowJson` built. A value that is not what the schema says its
 * column holds (none at all, NULL in a required column, another type, an enum value the schema
 * does not have) is refused, naming the column, rather than passed on.
 */
export function fromRowJson<T extends Table>(table: T, value: unknown): Row<T> {
  const plan = planOf(table);
  if (typeof value !== "object" || value === null) throw new RowShapeError(plan.sqlName, `a ${plan.sqlName} row`, value);
  const json = value as Record<string, unknown>;
  const row: Record<string, unknown> = {};
  for (const { name, kind, expected, accepts, required } of plan.fields) {
    const field = json[name];
    if (field === null && !required) {
      row[name] = null;
      continue;
    }
    if (!accepts(field)) throw new RowShapeError(`${plan.sqlName}.${name}`, expected, field);
    row[name] = kind === "date" ? fromUtcText(field as string) : kind === "bigint" ? BigInt(field as string) : field;
  }
  return row as Row<T>;
}

/** The rows of `table` from the JSON list `rowsJson` built. */
export function fromRowsJson<T extends Table>(table: T, value: unknown): Row<T>[] {
  if (!Array.isArray(value)) throw new RowShapeError(planOf(table).sqlName, `a list of ${planOf(table).sqlName} rows`, value);
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
