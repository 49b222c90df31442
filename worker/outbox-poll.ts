import type { Logger } from "../src/logger.js";
import { nextDueAt, type Lane } from "../src/domain/deliveries/claim.js";
import { TEST_EVENT_NOTICE } from "../src/domain/deliveries/outbox.js";
import type { DeliveryLane } from "./delivery.js";
import { queueDueAttempts } from "./jobs/queue-due-attempts.js";
import { oneRunAtATime } from "./one-run-at-a-time.js";
import { listenForOutbox } from "./outbox-listener.js";
import type { OutageReporter } from "./outage.js";

/**
 * The poll of the outbox, the one thing that gives deliveries their jobs (see queueDueAttempts): on
 * every NOTIFY of a new or redelivered delivery (for its lane), when a lane has used what it claimed
 * ahead (for that lane), when the next delivery that waits for its time is due, and every
 * `intervalMs`. The first poll and the periodic ones, which poll every lane, also take back the
 * claims whose job was lost (given more than `intervalMs` ago, and not run). Runs never overlap.
 */
export function startOutboxPoll(
  lanes: DeliveryLane[],
  settings: { intervalMs: number; listenUrl: string },
  databaseOutage: OutageReporter,
  failed: (err: unknown) => void,
  logger: Logger,
) {
  let stopped = false;
  let wake: { at: number; timer: NodeJS.Timeout } | null = null;

  /** Polls at `at`, unless a poll comes sooner anyway; the periodic one covers anything further off. */
  const pollAt = (at: Date) => {
    const ms = at.getTime();
    if (stopped || (wake && wake.at <= ms) || ms - Date.now() > settings.intervalMs) return;
    if (wake) clearTimeout(wake.timer);
    const timer = setTimeout(
      () => {
        wake = null;
        request();
      },
      Math.max(0, ms - Date.now()),
    );
    wake = { at: ms, timer };
  };

  let recovering = true;
  // The lanes asked for since the last poll began.
  const wanted = new Set<Lane>(lanes.map((lane) => lane.lane));
  const poll = async () => {
    const lostAfterMs = recovering ? settings.intervalMs : null;
    recovering = false;
    const polled = lanes.filter((lane) => wanted.has(lane.lane));
    wanted.clear();
    // One instant for the claims and the look ahead: a delivery that comes due between them is found
    // by the look ahead, due already, and polled for at once.
    const now = new Date();
    const { again } = await queueDueAttempts(polled, lostAfterMs, now);
    databaseOutage.recovered();
    if (again > 0) logger.warn({ deliveries: again }, "gave webhook deliveries whose job was lost a turn again");
    // Any worker's failed attempts: this one polls when the first of them is due.
    const next = await nextDueAt(now);
    if (next) pollAt(next);
  };
  const polls = oneRunAtATime(poll, failed);
  /** Polls the lanes now (every lane unless named), or once more after the poll under way. */
  const request = (lane?: Lane) => {
    if (stopped) return;
    for (const { lane: each } of lanes) if (!lane || lane === each) wanted.add(each);
    polls.request();
  };
  const listener = listenForOutbox(
    settings.listenUrl,
    (payload) => request(payload === undefined ? undefined : payload === TEST_EVENT_NOTICE ? "tests" : "deliveries"),
    databaseOutage,
  );
  const ticker = setInterval(() => {
    recovering = true;
    request();
  }, settings.intervalMs);

  return {
    /** Told when a failed event's next attempt is due (by the attempt that failed). */
    pollAt,
    /** Polls a lane now, or once more after the poll under way: its slots or a destination's room came free. */
    request,
    /** Stops polling; a poll under way goes on (see settled). */
    async stop() {
      stopped = true;
      clearInterval(ticker);
      if (wake) clearTimeout(wake.timer);
      await listener.close();
    },
    /** Resolves once no poll is under way. */
    settled: () => polls.settled(),
  };
}
