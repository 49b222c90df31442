import { merchantBranding, updateBranding, type Branding } from "../../domain/merchants/branding.js";
import { builder } from "../builder.js";

const MerchantBrandingRef = builder.objectRef<Branding>("MerchantBranding").implement({
  description: "How the merchant's pay pages look.",
  fields: (t) => ({
    displayName: t.exposeString("displayName", { nullable: true, description: "Shown instead of the merchant's name." }),
    accentColor: t.exposeString("accentColor", { nullable: true, description: "`#rrggbb`, at least 4.5:1 against white." }),
    logoUrl: t.string({
      nullable: true,
      description: "The logo, served from this service with its checked type; its address changes when the logo does.",
      resolve: (branding, _args, ctx) => (branding.logoHash ? ctx.links.logoUrl(branding.merchantId, branding.logoHash) : null),
    }),
  }),
});

const MerchantBrandingInput = builder.inputType("MerchantBrandingInput", {
  description: "What to change; a field not given stays as it is, and null removes it.",
  fields: (t) => ({
    displayName: t.string({ description: "Up to 60 characters." }),
    logo: t.string({
      description: "A `data:` URL of a PNG, JPEG or WebP image of at most 64 KB (SVG is refused: INVALID_LOGO).",
    }),
    accentColor: t.string({ description: "`#rrggbb`, refused below 4.5:1 contrast against white (INVALID_COLOR)." }),
  }),
});

builder.queryFields((t) => ({
  merchantBranding: t.field({
    type: MerchantBrandingRef,
    description: "The merchant's pay page branding (merchant keys and console sessions).",
    resolve: async (_root, _args, ctx) => merchantBranding(await ctx.domain()),
  }),
}));

builder.mutationFields((t) => ({
  merchantBrandingUpdate: t.field({
    type: MerchantBrandingRef,
    description:
      "Set the merchant's display name, logo and accent colour on its pay pages (merchant keys and console sessions that may change things).",
    args: { input: t.arg({ type: MerchantBrandingInput, required: true, description: "What to change." }) },
    errors: {},
    resolve: async (_root, { input }, ctx) => updateBranding(await ctx.domain(), input),
  }),
}));
