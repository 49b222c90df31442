/**
 * Driving the servers: single checked calls, and autocannon runs that count correct answers only
 * and stop at the first wrong one. Optionally measures the serving process's CPU per call.
 */
import autocannon, { type Instance, type Options, type Request, type Result } from "autocannon";
import { setTimeout as sleep } from "node:timers/promises";
import { until } from "../src/poll.js";
import { isCorrect } from "./correct-answer.js";
import { cpuMicrosPerCall, postgresTicksBetween, readCpuTicks, readPostgresTicks } from "./proc.js";

/** Per-connection state autocannon threads through a request sequence. */
export type Context = { id?: string };

/** A POST or GET that must answer 2xx without `errors` (within 10 s, unless `init` gives a signal): anything else stops the bench with the answer. */
export async function call<T>(url: string, init: RequestInit = {}): Promise<T> {
  const answer = await fetch(url, { signal: AbortSignal.timeout(10_000), ...init });
  const text = await answer.text();
  if (!isCorrect(answer.status, text, new URL(url).pathname))
    throw new Error(`bench: ${init.method ?? "GET"} ${url} answered ${answer.status} ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

/** Polls `ready` until it holds (src/poll.ts); past `timeoutMs` throws, saying what it was waiting for. */
export const waitUntil = (what: () => string, ready: () => boolean | Promise<boolean>, timeoutMs: number, everyMs: number) =>
  until(ready, Boolean, timeoutMs, () => `bench: ${what()}`, everyMs).then(() => undefined);

/**
 * One autocannon run that stops at the first incorrect answer and then throws it (status and
 * body), as it does for any non-2xx answer, connection error or timeout: the figures it returns
 * count correct answers only.
 */
export function run(options: Options, duration: number): Promise<Result> {
  const url = new URL(options.url);
  let firstBad: string | null = null;
  let instance: Instance | undefined;
  const requests = (options.requests ?? [{}]).map((request): Request => {
    const path = request.path ?? url.pathname + url.search;
    const own = request.onResponse as ((status: number, body: string, context: Context) => void) | undefined;
    return {
      ...request,
      onResponse: (status, body, context) => {
        if (isCorrect(status, body, path)) return own?.(status, body, context);
        firstBad ??= `${request.method ?? options.method ?? "GET"} ${path} answered ${status}: ${body.slice(0, 500)}`;
        instance?.stop();
      },
    };
  });
  return new Promise((resolve, reject) => {
    instance = autocannon({ ...options, duration, requests }, (err: Error | null, result) => {
      if (err) return reject(err);
      const { non2xx, errors, timeouts } = result;
      if (firstBad === null && !non2xx && !errors && !timeouts) return resolve(result);
      reject(
        new Error(
          `bench: wrong answers from ${url.origin} (${non2xx} non-2xx, ${errors} errors, ${timeouts} timeouts); ` +
            `first: ${firstBad ?? "none received (connection errors or timeouts)"}`,
        ),
      );
    });
  });
}

export interface Measured {
  result: Result;
  /** CPU of the serving process per completed call during the measured run, in µs; null when not asked. */
  cpuMicrosPerCall: number | null;
  /** CPU of PostgreSQL (all its processes) per completed call over the same run, in µs; null when not asked. */
  dbCpuMicrosPerCall?: number | null;
}

export interface LoadTiming {
  warmup: number;
  duration: number;
  /** Clock ticks per second, to turn /proc's CPU time into µs. */
  ticksPerSecond: number;
}

/**
 * An unmeasured (but checked) warm-up, then the measured run: V8 optimises each path only after
 * some thousands of calls. With `cpuOf`, that process's CPU time is read from /proc around the
 * measured run and divided by the calls answered in it (every call of a sequence counts); of
 * several processes, their sum.
 */
export async function load(options: Options, timing: LoadTiming, cpuOf?: number | number[]): Promise<Measured> {
  await run(options, timing.warmup);
  // The calls the warm-up left unanswered (one per connection at most) finish on the server before the reading.
  await sleep(500);
  const none = new Map<number, number>();
  const ticks = async (pids: number | number[]) =>
    (await Promise.all([pids].flat().map(readCpuTicks))).reduce((sum, each) => sum + each, 0);
  const [before, dbBefore] = cpuOf === undefined ? [0, none] : await Promise.all([ticks(cpuOf), readPostgresTicks()]);
  const result = await run(options, timing.duration);
  const [after, dbAfter] = cpuOf === undefined ? [0, none] : await Promise.all([ticks(cpuOf), readPostgresTicks()]);
  // The calls the run leaves unanswered have used some CPU without being counted: one per connection at
  // most, against the hundreds (pays) to thousands of calls of a run.
  const calls = result["2xx"];
  return {
    result,
    cpuMicrosPerCall: cpuOf === undefined ? null : cpuMicrosPerCall(before, after, calls, timing.ticksPerSecond),
    dbCpuMicrosPerCall:
      cpuOf === undefined ? null : cpuMicrosPerCall(0, postgresTicksBetween(dbBefore, dbAfter), calls, timing.ticksPerSecond),
  };
}

/**
 * Hands out distinct pre-created ids, one per call, across all connections (autocannon asks for
 * the next call's body as each answer arrives). Running out throws, which stops the bench: a call
 * must never reuse an id (a second pay of one request is a 409).
 */
export function idSupply(ids: string[], what: string): () => string {
  let next = 0;
  return () => {
    if (next >= ids.length)
      throw new Error(`bench: the ${ids.length} pre-created ${what} ran out (raise POOL_RATE_PER_SECOND in bench/options.ts)`);
    return ids[next++]!;
  };
}
