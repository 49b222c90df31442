import type pg from "pg";

const statementNames = new Map<string, string>();
let namedStatements = true;

/** Whether `prepared` names statements: false behind a transaction-mode pooler (DATABASE_PREPARED_STATEMENTS). */
export function namePreparedStatements(named: boolean): void {
  namedStatements = named;
}
/** Past this many distinct texts, statements are no longer prepared (a guard against texts built with data). */
const MOST_PREPARED = 500;

/**
 * A statement to run as a prepared one: each pool connection parses and plans its text once, then
 * only binds and executes it (for the hot paths' longer statements that was most of PostgreSQL's
 * CPU per call). The text must hold no data, only placeholders: one name per distinct text.
 * Unnamed when the database was opened without prepared statements: a transaction-mode pooler
 * hands each transaction any server connection, where a name prepared on another is unknown.
 */
export function prepared(text: string, values: unknown[]): pg.QueryConfig<unknown[]> {
  if (!namedStatements) return { text, values };
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MOST_PREPARED)
    statementNames.set(text, (name = `payreq_${statementNames.size}`));
  return name === undefined ? { text, values } : { name, text, values };
}
