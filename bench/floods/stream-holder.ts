/**
 * Holds one key's `paymentRequestChanged` streams in a process of its own, so that reading them
 * costs the process that times another tenant nothing. Usage:
 * `node --import tsx bench/floods/stream-holder.ts <base> <apiKey> <count>`.
 * Prints `{"statuses": [...]}` once every stream has answered, then `{"heardByAll": requestId}`
 * for each change every stream has heard, and `{"failure": message}` if a stream ends or fails.
 */
const [base = "", apiKey = "", count = "0"] = process.argv.slice(2);
const print = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

const streams = Number(count);
const heard = new Map<string, number>();

async function hold(): Promise<number> {
  const response = await fetch(`${base}/graphql`, {
    method: "POST",
    headers: { "x-api-key": apiKey, "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ query: "subscription { paymentRequestChanged { id status } }" }),
  });
  if (response.status !== 200) return response.status;
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      const events = buffer.split("\n\n");
      buffer = events.pop()!;
      for (const id of events.flatMap((event) => /"id":"([^"]+)"/.exec(event)?.[1] ?? [])) {
        const times = (heard.get(id) ?? 0) + 1;
        heard.set(id, times);
        if (times === streams) print({ heardByAll: id });
      }
    }
    print({ failure: "a stream ended while it was held" });
  })().catch((err: Error) => print({ failure: err.message }));
  return response.status;
}

print({ statuses: await Promise.all(Array.from({ length: streams }, hold)) });
