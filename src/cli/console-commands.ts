/** The CLI's `console …` commands: sign-in links to a merchant's console, and its sessions. */
import { createConsoleLink, endConsoleSession, listConsoleSessions } from "../domain/console/sessions.js";
import type { DomainContext } from "../domain/context.js";
import { pageLinks } from "../transport/links.js";
import type { Command } from "./command-line.js";

type ConsoleCommand = Extract<Command, `console ${string}`>;

interface ConsoleArgs {
  text: (name: string) => string | undefined;
  flag: (name: string) => boolean;
  /** `console end`'s session. */
  sessionId: string;
}

/** Runs one `console …` command; a link is `<publicUrl>/console/sign-in#<token>`, shown once. */
export async function runConsoleCommand(
  ctx: DomainContext,
  command: ConsoleCommand,
  { text, flag, sessionId }: ConsoleArgs,
  publicUrl: string,
): Promise<Record<string, unknown>> {
  switch (command) {
    case "console link": {
      const input = { merchantId: text("merchant"), readOnly: flag("read-only"), label: text("label") };
      const { token, expiresAt } = await createConsoleLink(ctx, input);
      return { url: pageLinks(publicUrl).consoleSignInUrl(token), expiresAt: expiresAt.toISOString() };
    }
    case "console sessions": {
      const sessions = await listConsoleSessions(ctx, text("merchant"));
      return {
        sessions: sessions.map((session) => ({
          id: session.id,
          label: session.label ?? undefined,
          readOnly: session.readOnly,
          createdAt: session.createdAt.toISOString(),
          lastSeenAt: session.lastSeenAt.toISOString(),
          expiresAt: session.expiresAt.toISOString(),
        })),
      };
    }
    case "console end":
      await endConsoleSession(ctx, sessionId);
      return { ended: sessionId };
  }
}
