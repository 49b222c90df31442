/** Why `npm start` cannot go on, in one sentence that says what to fix. */
export class StartupProblem extends Error {
  override name = "StartupProblem";
}

/** `host:port` of a connection string, for messages (never its credentials). */
export function hostOf(url: string, defaultPort: number): string {
  const { hostname, port } = new URL(url);
  return `${hostname}:${port || defaultPort}`;
}
