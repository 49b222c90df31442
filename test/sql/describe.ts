import type pg from "pg";

/** The names of the columns a statement would give, as PostgreSQL describes it: nothing runs. */
export async function describeColumns(client: pg.PoolClient, text: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    let columns: string[] = [];
    let failure: Error | undefined;
    // A pg "submittable": parse and describe the unnamed statement, then sync; never bind or execute.
    const describe = {
      submit(connection: {
        parse(query: { text: string; types: number[] }): void;
        describe(message: { type: "S"; name: string }): void;
        sync(): void;
      }) {
        connection.parse({ text, types: [] });
        connection.describe({ type: "S", name: "" });
        connection.sync();
      },
      handleRowDescription(message: { fields: { name: string }[] }) {
        columns = message.fields.map((field) => field.name);
      },
      handleError(error: Error) {
        failure = error;
      },
      handleReadyForQuery() {
        if (failure) reject(failure);
        else resolve(columns);
      },
      handleParseComplete() {},
      handleDataRow() {},
      handleCommandComplete() {},
      handleEmptyQuery() {},
      handlePortalSuspended() {},
    };
    void client.query(describe as unknown as pg.QueryConfig);
  });
}
