import pg from "pg";
import { WEBHOOK_CHANNEL } from "../src/domain/webhooks/outbox.js";
import type { Logger } from "../src/logger.js";

/**
 * LISTENs for new outbox rows so delivery starts as soon as the paying transaction commits.
 * Reconnects after a lost connection; the periodic drain covers anything announced meanwhile.
 */
export function listenForOutbox(url: string, onEvent: () => void, logger: Logger) {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | undefined;

  const closeQuietly = (c: pg.Client) =>
    c.end().catch((err: unknown) => logger.debug({ err }, "outbox listener: closing a broken connection failed"));
  const reconnectSoon = () => {
    if (!stopped) retry = setTimeout(() => void connect(), 1000);
  };

  const connect = async () => {
    const next = new pg.Client({ connectionString: url });
    next.on("notification", onEvent);
    next.on("error", (err) => {
      logger.warn({ err }, "outbox listener lost its connection; reconnecting");
      void closeQuietly(next);
      reconnectSoon();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${WEBHOOK_CHANNEL}`);
      client = next;
      onEvent();
    } catch (err) {
      logger.warn({ err }, "outbox listener could not connect; retrying");
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
