import { Queue, type ConnectionOptions } from "bullmq";

/** Periodic housekeeping (the expiry sweep). */
export const MAINTENANCE_QUEUE = "maintenance";
/** One job per webhook event, id = event id. */
export const WEBHOOK_QUEUE = "webhooks";

export const jobs = {
  expireRequests: "expire-requests",
} as const;

/** A queue with retention defaults: finished jobs are removed, failures kept briefly for inspection. */
export function createQueue<T = unknown>(
  name: string,
  connection: ConnectionOptions,
  prefix: string,
  retention: { removeOnFail?: true } = {},
): Queue<T> {
  return new Queue<T>(name, {
    connection,
    prefix,
    defaultJobOptions: { removeOnComplete: true, removeOnFail: retention.removeOnFail ?? { count: 1000 } },
  });
}
