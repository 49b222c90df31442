/**
 * What the flood helpers share: their protocol with the bench and their calls. On standard input,
 * `flood` starts a turn and `pause` ends it; on standard output, one JSON object a line, and after
 * each pause `{"statuses": [[status, count], …]}`, counted over every turn so far.
 */
import { Agent, request } from "node:http";
import { createInterface } from "node:readline";

export const print = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

/** Calls to `/graphql` of `base` with an API key, at most `connections` at a time, each answer counted by its status. */
export function graphqlCaller(base: string, apiKey: string, connections: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const headers = { "content-type": "application/json", "x-api-key": apiKey };
  const statuses = new Map<number, number>();
  return {
    statuses,
    answered: () => [...statuses.values()].reduce((sum, n) => sum + n, 0),
    /** One call, read to its end; its status, or 0 when the connection failed. */
    send: (body: string) =>
      new Promise<number>((resolve) => {
        const call = request(`${base}/graphql`, { agent, method: "POST", headers }, (response) => {
          response.resume();
          response.on("end", () => {
            statuses.set(response.statusCode!, (statuses.get(response.statusCode!) ?? 0) + 1);
            resolve(response.statusCode!);
          });
        });
        call.on("error", () => {
          statuses.set(0, (statuses.get(0) ?? 0) + 1);
          resolve(0);
        });
        call.end(body);
      }),
    close: () => agent.destroy(),
  };
}

/**
 * Runs turns as standard input says until it ends: `start` begins a turn and answers how to end
 * it (a promise that settles once its calls are answered).
 */
export async function runTurns(start: () => () => Promise<void>, caller: { statuses: Map<number, number> }) {
  let end: (() => Promise<void>) | null = null;
  const pause = async () => {
    if (!end) return;
    await end();
    end = null;
    print({ statuses: [...caller.statuses] });
  };
  for await (const command of createInterface({ input: process.stdin })) {
    if (command === "flood") end ??= start();
    else if (command === "pause") await pause();
  }
  await pause();
}
