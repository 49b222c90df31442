import pg from "pg";
import { prepared } from "./prepared.js";

type Sql = Pick<pg.PoolClient, "query">;
import type { Column } from "./columns.js";

/** What reading a column needs of it: any Column<T> is one, whatever its T. */
type ReadColumn = Pick<Column<unknown>, "sqlType" | "decode">;
/** The columns of a statement's rows, by the name each is selected as. */
export type Shape = Record<string, ReadColumn>;
export type RowOf<S extends Shape> = { [K in keyof S]: ReturnType<S[K]["decode"]> };

/** The row type of a statement and its mapper, from one list of columns. */
export class RowShape<R> {
  readonly names: readonly string[];
  private readonly columns: readonly ReadColumn[];

  constructor(columns: Shape) {
    this.names = Object.keys(columns);
    this.columns = Object.values(columns);
  }

  /** Every column refuses `undefined`, which is what a row gives for a column its statement did not select. */
  decode(row: Record<string, unknown>): R {
    const decoded: Record<string, unknown> = {};
    for (let i = 0; i < this.names.length; i++) {
      const name = this.names[i]!;
      decoded[name] = this.columns[i]!.decode(row[name], name);
    }
    return decoded as R;
  }
}

export const rowShape = <S extends Shape>(columns: S) => new RowShape<RowOf<S>>(columns);

/** A statement's text and the shape of its rows. */
export interface Statement<R> {
  readonly text: string;
  readonly shape: RowShape<R>;
}

/** Every statement declared with `statement`, which test/sql describes against the database. */
export const declaredStatements: Statement<unknown>[] = [];

/**
 * A statement whose text holds no data (only placeholders) and whose rows have `columns`, declared
 * once at a module's top level: test/sql asks PostgreSQL what it selects and compares it with them.
 */
export function statement<S extends Shape>(text: string, columns: S): Statement<RowOf<S>> {
  const declared = { text, shape: rowShape(columns) };
  declaredStatements.push(declared);
  return declared;
}

/** Timestamps (without a zone) as their UTC text, which the timestamp column decodes; pg's own parsers for the rest. */
const builtinParser = pg.types.getTypeParser as (oid: number, format?: "text" | "binary") => (text: string) => unknown;
const TIMESTAMP: number = pg.types.builtins.TIMESTAMP;
const UTC_TEXT_TIMESTAMPS = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === TIMESTAMP ? (text: string) => text : builtinParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Runs a statement (prepared, see db.ts) and maps each row to its shape. */
export async function queryRows<R>(sql: Sql, { text, shape }: Statement<R>, values: unknown[]): Promise<R[]> {
  const { rows } = await sql.query({ ...prepared(text, values), types: UTC_TEXT_TIMESTAMPS });
  return rows.map((row: Record<string, unknown>) => shape.decode(row));
}

/** The first row of a statement, or undefined. */
export async function queryRow<R>(sql: Sql, statement: Statement<R>, values: unknown[]): Promise<R | undefined> {
  return (await queryRows(sql, statement, values))[0];
}
