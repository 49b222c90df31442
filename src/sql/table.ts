import { RowShapeError, type Column, type ParamValue } from "./columns.js";

/** One Column for each field of a Prisma model: a field the schema gains and this lacks fails the type check. */
export type Columns<M> = { [K in keyof M]-?: Column<M[K]> };

/** The database's name of a model field: `merchantId` is `merchant_id` (the schema's `@map` convention, checked by test/sql). */
export const columnName = (field: string) => field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/**
 * A table as a Prisma model describes it, and the SQL generated from that one description: the
 * JSON object a statement selects a row as, the mapper from that JSON, and the INSERT of new rows.
 * Statements that read or write whole rows build their column lists from here, so they cannot
 * drift from the schema. A Table is itself the Column of one row as a JSON object.
 */
export class Table<M> implements Column<M> {
  readonly sqlType: string;
  private readonly fields: readonly (keyof M & string)[];
  /** For decode, the hot part, in parallel arrays: each field's column, and the name an error gives it. */
  private readonly decoders: readonly Column<unknown>[];
  private readonly wheres: readonly string[];
  /** For the INSERTs, built once: the quoted column names, and each field's cast. */
  private readonly names: readonly string[];
  private readonly casts: readonly string[];
  private readonly columnList: string;

  constructor(
    readonly name: string,
    readonly columns: Columns<M>,
  ) {
    this.sqlType = name;
    this.fields = Object.keys(columns) as (keyof M & string)[];
    this.decoders = this.fields.map((field) => columns[field] as Column<unknown>);
    this.wheres = this.fields.map((field) => `${name}.${field}`);
    this.names = this.fields.map(columnName);
    this.casts = this.fields.map((field) => `::${columns[field].sqlType}`);
    this.columnList = this.names.map(quoted).join(", ");
  }

  /** The same table, with only some of its columns: a statement that needs no more reads no more. */
  pick<K extends keyof M & string>(...fields: K[]): Table<Pick<M, K>> {
    const picked = {} as Columns<Pick<M, K>>;
    for (const field of fields) picked[field] = this.columns[field];
    return new Table(this.name, picked);
  }

  /** `json_build_object(...)` of the row `alias`, the value `decode` reads. */
  json(alias: string): string {
    const pairs = this.fields.map((field, i) => `'${field}', ${this.columns[field].json(`${alias}.${quoted(this.names[i]!)}`)}`);
    return `json_build_object(${pairs.join(", ")})`;
  }

  /** `coalesce(json_agg(<row> ORDER BY …), '[]')`, for a list of rows under one key. */
  jsonList(alias: string, orderBy?: string): string {
    return `coalesce(json_agg(${this.json(alias)}${orderBy ? ` ORDER BY ${orderBy}` : ""}), '[]')`;
  }

  decode(value: unknown, where: string): M {
    if (typeof value !== "object" || value === null) throw new RowShapeError(where, `a ${this.name} row`, value);
    const json = value as Record<string, unknown>;
    const row = {} as M;
    for (let i = 0; i < this.fields.length; i++) {
      const field = this.fields[i]!;
      row[field] = this.decoders[i]!.decode(json[field], this.wheres[i]!) as M[typeof field];
    }
    return row;
  }

  param(value: M): ParamValue {
    return JSON.stringify(value, bigintsAsText);
  }

  /** `INSERT INTO <table> (<every column>) VALUES (...)` of one row, each value a placeholder from `add`. */
  insert(add: (value: ParamValue) => string, row: M): string {
    const values = this.fields.map((field, i) => add(this.columns[field].param(row[field])) + this.casts[i]!);
    return `INSERT INTO ${quoted(this.name)} (${this.columnList}) VALUES (${values.join(", ")})`;
  }

  /** The INSERT of any number of rows with one text: they travel as one JSON parameter. */
  insertAll(add: (value: ParamValue) => string, rows: readonly M[]): string {
    const records = rows.map((row) =>
      Object.fromEntries(this.fields.map((field, i) => [this.names[i]!, this.columns[field].param(row[field])])),
    );
    return `INSERT INTO ${quoted(this.name)} (${this.columnList})
      SELECT ${this.columnList} FROM json_populate_recordset(null::${quoted(this.name)}, ${add(JSON.stringify(records))}::json)`;
  }
}

/** A list of one table's rows under one key (`jsonList`'s value). */
export function listOf<M>(table: Table<M>): Column<M[]> {
  return {
    sqlType: `${table.name}[]`,
    json: (alias) => table.jsonList(alias),
    decode(value, where) {
      if (!Array.isArray(value)) throw new RowShapeError(where, `a list of ${table.name} rows`, value);
      return value.map((row) => table.decode(row, where));
    },
    param: (rows) => JSON.stringify(rows, bigintsAsText),
  };
}

/** JSON of a row: a bigint as its digits, as the columns read it back. */
const bigintsAsText = (_key: string, item: unknown) => (typeof item === "bigint" ? item.toString() : item);

/** Every name is quoted: `transaction`, `index` and `key` read as keywords. */
const quoted = (name: string) => `"${name}"`;
