import { once } from "node:events";
import { connect } from "node:net";
import { createInterface } from "node:readline";

/** Reads a MONITOR line's quoted words (`"evalsha" "…" "2" "key"`), undoing Redis's escapes. */
export function monitoredWords(line: string): string[] {
  const words: string[] = [];
  for (const [, quoted] of line.matchAll(/"((?:[^"\\]|\\.)*)"/g))
    words.push(
      quoted!.replace(/\\(x[0-9a-f]{2}|.)/g, (_, escaped: string) =>
        escaped.length === 3
          ? String.fromCharCode(parseInt(escaped.slice(1), 16))
          : (({ n: "\n", r: "\r", t: "\t", a: "\x07", b: "\b" } as Record<string, string>)[escaped] ?? escaped),
      ),
    );
  return words;
}

/**
 * Watches what Redis at `url` is sent (MONITOR), calling `onCommand` with each command's words, on
 * a socket of its own: ioredis's monitor mode mistakes lines that come while it is still switching
 * for answers to commands ("Command queue state error") when the server is busy. Resolves once
 * Redis has begun; `stop` closes it.
 */
export async function monitorRedis(url: string, onCommand: (words: string[]) => void): Promise<{ stop: () => void }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port || 6379), hostname);
  await once(socket, "connect");
  socket.write("MONITOR\r\n");
  const lines = createInterface({ input: socket });
  let begun: () => void;
  const started = new Promise<void>((resolve) => (begun = resolve));
  lines.on("line", (line) => {
    if (line === "+OK") begun();
    else if (line.startsWith("+")) onCommand(monitoredWords(line));
  });
  socket.on("error", () => {});
  await started;
  return { stop: () => socket.destroy() };
}
