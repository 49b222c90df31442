import { createConsoleLink, endConsoleSession, listConsoleSessions } from "../../domain/console/sessions.js";
import { builder } from "../builder.js";

/** A sign-in link to the merchant console, as made: shown once. */
const ConsoleLink = builder.objectRef<{ url: string; expiresAt: Date }>("ConsoleLink").implement({
  description: "A one-time sign-in link to the merchant console. Keep it secret: whoever opens it first is signed in.",
  fields: (t) => ({
    url: t.exposeString("url", { description: "`<PUBLIC_URL>/console/sign-in#<token>`: opens once, within 15 minutes." }),
    expiresAt: t.expose("expiresAt", { type: "DateTime", description: "When the link stops opening." }),
  }),
});

const ConsoleLinkCreateInput = builder.inputType("ConsoleLinkCreateInput", {
  description: "Who the link is for.",
  fields: (t) => ({
    readOnly: t.boolean({ description: "A read-only session reads everything and changes nothing (default false)." }),
    label: t.string({
      description: "Names the session in its list and in the activity trail (`console:<label>`), up to 60 characters.",
    }),
  }),
});

builder.mutationFields((t) => ({
  consoleLinkCreate: t.field({
    type: ConsoleLink,
    description: "Make a one-time sign-in link to the merchant console for this merchant (merchant keys only).",
    args: { input: t.arg({ type: ConsoleLinkCreateInput, required: false, description: "Who the link is for." }) },
    errors: {},
    resolve: async (_root, { input }, ctx) => {
      const { token, expiresAt } = await createConsoleLink(await ctx.domain(), input ?? {});
      return { url: ctx.links.consoleSignInUrl(token), expiresAt };
    },
  }),
}));

interface SessionShape {
  id: string;
  label: string | null;
  readOnly: boolean;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

const ConsoleSessionRef = builder.objectRef<SessionShape>("ConsoleSession").implement({
  description: "A signed-in console session of the merchant, never its cookie.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "Names it to end it." }),
    label: t.exposeString("label", { nullable: true, description: "Who it is for, as its link said." }),
    readOnly: t.exposeBoolean("readOnly", { description: "Reads everything and changes nothing." }),
    createdAt: t.expose("createdAt", { type: "DateTime", description: "When its link was opened." }),
    lastSeenAt: t.expose("lastSeenAt", { type: "DateTime", description: "Its last call; it ends 12 hours after." }),
    expiresAt: t.expose("expiresAt", { type: "DateTime", description: "When it ends whatever it does." }),
    current: t.boolean({
      description: "Whether it is the session making this call.",
      resolve: async (session, _args, ctx) => {
        const { actor } = await ctx.domain();
        return actor.kind === "merchant" && actor.session?.id === session.id;
      },
    }),
  }),
});

builder.queryFields((t) => ({
  consoleSessions: t.field({
    type: [ConsoleSessionRef],
    description: "The merchant's live console sessions, newest first (merchant keys and console sessions).",
    resolve: async (_root, _args, ctx) => listConsoleSessions(await ctx.domain()),
  }),
}));

builder.mutationFields((t) => ({
  consoleSessionEnd: t.field({
    type: ConsoleSessionRef,
    description:
      "End one of the merchant's console sessions: its next call is refused (merchant keys and console sessions that may change things).",
    args: { id: t.arg.id({ required: true, description: "The session's id." }) },
    errors: {},
    resolve: async (_root, { id }, ctx) => endConsoleSession(await ctx.domain(), id),
  }),
}));
