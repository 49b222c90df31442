import { expireOverdueRequests } from "../../src/domain/requests/expire.js";
import type { Logger } from "../../src/logger.js";

/**
 * Stores EXPIRED on open requests whose time is up. Reads already show them expired; this makes it
 * durable. The production sweep is unscoped: every overdue request of the database.
 */
export async function runExpiryJob(logger: Logger, now = new Date()): Promise<number> {
  const expired = await expireOverdueRequests(now, {});
  if (expired > 0) logger.info({ expired }, "expired overdue requests");
  return expired;
}
