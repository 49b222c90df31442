import pg from "pg";
import { WEBHOOK_CHANNEL } from "../src/domain/deliveries/outbox.js";
import type { OutageReporter } from "./outage.js";

/**
 * LISTENs for new outbox rows so delivery starts as soon as the paying transaction commits, telling
 * `onEvent` each notification's payload (TEST_EVENT_NOTICE for test events), and nothing once
 * (re)connected. Reconnects after a lost connection; the periodic poll covers anything announced
 * meanwhile.
 *
 * Its connection is a dedicated pg client, not the pool's: LISTEN makes a session a notification
 * listener for as long as it lives, which a pooled connection (handed to other statements) or a
 * transaction-mode pooler cannot be. It runs no statement on the outbox's rows; those are the
 * domain's (src/domain/deliveries/), on the query builder.
 */
export function listenForOutbox(url: string, onEvent: (payload?: string) => void, outage: OutageReporter) {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  // A broken connection may fail to close as well; there is nothing more to do with it.
  const closeQuietly = (c: pg.Client) => c.end().catch(() => undefined);
  const reconnectSoon = () => {
    if (!stopped) retry = setTimeout(() => void connect(), 1000);
  };

  const connect = async () => {
    // Beside the pool's `payreq-worker` connections in pg_stat_activity, and not counted in DATABASE_POOL_SIZE.
    const next = new pg.Client({ connectionString: url, application_name: "payreq-worker-listen" });
    next.on("notification", (message) => onEvent(message.payload));
    next.on("error", (err) => {
      outage.failed(err);
      void closeQuietly(next);
      reconnectSoon();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${WEBHOOK_CHANNEL}`);
      client = next;
      outage.recovered();
      onEvent();
    } catch (err) {
      outage.failed(err);
      await closeQuietly(next);
      reconnectSoon();
    }
  };

  void connect();
  return {
    async close() {
      stopped = true;
      clearTimeout(retry);
      if (client) await closeQuietly(client);
    },
  };
}
