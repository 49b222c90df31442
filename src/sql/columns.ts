import type { Prisma } from "../generated/prisma/client.js";
import { fromUtcText, toUtcText } from "./query-builder.js";

/** What a statement's parameter carries: pg sends each as text, arrays as PostgreSQL arrays. */
export type ParamValue = string | number | boolean | null | readonly string[];

/**
 * How one value travels between PostgreSQL and the code: the SQL that reads a column as the JSON
 * value `decode` expects, the type a parameter is cast to, and both conversions. `decode` checks
 * what it is given, so a statement that does not select what its row type says fails on its first
 * row, naming the column, instead of handing `undefined` on.
 */
export interface Column<T> {
  /** The SQL type of a parameter or column (a cast target): `uuid`, `bigint`, `"RequestStatus"`… */
  readonly sqlType: string;
  /** The SQL that reads `qualified` (a column, `r.amount`) as decode takes it in JSON. */
  json(qualified: string): string;
  decode(value: unknown, where: string): T;
  /** A property, not a method, so that Column<T> is invariant in T: a nullable column fits no non-null field. */
  readonly param: (value: T) => ParamValue;
}

/** A statement selected something other than what its row type says. */
export class RowShapeError extends Error {
  constructor(where: string, expected: string, value: unknown) {
    super(`${where}: the statement gave ${value === undefined ? "no such column" : typeof value}, its row type says ${expected}`);
  }
}

function scalar<T extends string | number | boolean>(
  sqlType: string,
  expected: "string" | "number" | "boolean",
  check?: (value: T) => boolean,
): Column<T> {
  return {
    sqlType,
    json: (qualified) => qualified,
    decode: check
      ? (value, where) => {
          if (typeof value !== expected || !check(value as T)) throw new RowShapeError(where, sqlType, value);
          return value as T;
        }
      : (value, where) => {
          if (typeof value !== expected) throw new RowShapeError(where, sqlType, value);
          return value as T;
        },
    param: (value) => value,
  };
}

export const text = (): Column<string> => scalar("text", "string");
export const uuid = (): Column<string> => scalar("uuid", "string");
export const int = (): Column<number> => scalar<number>("int", "number", Number.isInteger);
/** float8: fractions, and Infinity. */
export const double = (): Column<number> => scalar<number>("float8", "number");
export const boolean = (): Column<boolean> => scalar("boolean", "boolean");

/** One of a Prisma enum's values (the generated object of its values, and the SQL type's name). */
export function enumOf<E extends string>(values: Record<string, E>, typeName: string): Column<E> {
  const known = new Set<string>(Object.values(values));
  return scalar<E>(`"${typeName}"`, "string", (value) => known.has(value));
}

/** Minor units and counters: read as text (JSON numbers lose digits past 2^53), held as bigint. */
export const bigint = (): Column<bigint> => ({
  sqlType: "bigint",
  json: (qualified) => `${qualified}::text`,
  decode(value, where) {
    if (typeof value !== "string") throw new RowShapeError(where, "bigint", value);
    return BigInt(value);
  },
  param: (value) => value.toString(),
});

/**
 * A UTC `timestamp(3)` without a zone (Prisma's convention): read as its zone-less text, never as
 * the driver's Date, which pg would build in the process's own time zone.
 */
export const timestamp = (): Column<Date> => ({
  sqlType: "timestamp(3)",
  json: (qualified) => qualified,
  decode(value, where) {
    if (typeof value !== "string") throw new RowShapeError(where, "timestamp (as text)", value);
    return fromUtcText(value);
  },
  param: (value) => toUtcText(value),
});

export function arrayOf<T extends string>(item: Column<T>): Column<T[]> {
  return {
    sqlType: `${item.sqlType}[]`,
    json: (qualified) => qualified,
    decode(value, where) {
      if (!Array.isArray(value)) throw new RowShapeError(where, `${item.sqlType}[]`, value);
      return value.map((element) => item.decode(element, where));
    },
    param: (value) => value,
  };
}

/** A json/jsonb column, as Prisma types it. */
export const json = (): Column<Prisma.JsonValue> => ({
  sqlType: "jsonb",
  json: (qualified) => qualified,
  decode(value, where) {
    // SQL NULL is not JSON null: a NOT NULL column never gives it, a nullable one is `nullable(json())`.
    if (value === undefined || value === null) throw new RowShapeError(where, "json", value);
    return value;
  },
  param: (value) => JSON.stringify(value),
});

export function nullable<T>(column: Column<T>): Column<T | null> {
  return {
    sqlType: column.sqlType,
    json: (qualified) => column.json(qualified),
    decode: (value, where) => (value === null ? null : column.decode(value, where)),
    param: (value) => (value === null ? null : column.param(value)),
  };
}
