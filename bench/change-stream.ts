/**
 * A `paymentRequestChanged` subscription over server-sent events, as a dashboard holds one: the
 * answer's status, and then the id of each change as it arrives. Reading goes on in the
 * background until the stream ends (or `signal` aborts it), which `ended` reports.
 */
export async function openChangeStream(
  api: string,
  apiKey: string,
  onChange: (requestId: string) => void,
  signal?: AbortSignal,
): Promise<{ status: number; ended: Promise<void> }> {
  const response = await fetch(`${api}/graphql`, {
    method: "POST",
    ...(signal ? { signal } : {}),
    headers: { "x-api-key": apiKey, "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ query: "subscription { paymentRequestChanged { id status } }" }),
  });
  if (response.status !== 200) return { status: response.status, ended: Promise.resolve() };
  const ended = (async () => {
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      const events = buffer.split("\n\n");
      buffer = events.pop()!;
      for (const id of events.flatMap((event) => /"id":"([^"]+)"/.exec(event)?.[1] ?? [])) onChange(id);
    }
  })();
  return { status: response.status, ended };
}
