import { createConsoleLink } from "../../domain/console/sessions.js";
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
