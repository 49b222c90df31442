import { Queue, type ConnectionOptions } from "bullmq";

/** Periodic housekeeping (the expiry sweep). Webhook delivery gets a queue of its own. */
export const MAINTENANCE_QUEUE = "maintenance";

export const jobs = {
  expireRequests: "expire-requests",
} as const;

/** A queue with retention defaults: finished jobs are kept briefly for inspection, not forever. */
export function createQueue(name: string, connection: ConnectionOptions, prefix: string): Queue {
  return new Queue(name, {
    connection,
    prefix,
    defaultJobOptions: { removeOnComplete: { count: 100 }, removeOnFail: { count: 1000 } },
  });
}
