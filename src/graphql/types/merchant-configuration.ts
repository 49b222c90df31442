import {
  getMerchantConfiguration,
  type MerchantConfiguration as Configuration,
} from "../../domain/merchants/configurations-info.js";
import type { ConfigurationItem as Item } from "../../generated/prisma/client.js";
import { configurationInfoCodes } from "../../domain/merchants/schemas.js";
import { builder } from "../builder.js";
import { parameterCodes } from "../strict-variables.js";
import { PaymentMethodEnum } from "../enums.js";

const Icon = builder.objectRef<{ image: string; mimeType: string }>("Icon").implement({
  description: "An image to show for an asset.",
  fields: (t) => ({
    image: t.exposeString("image", { description: "Base64-encoded image." }),
    mimeType: t.exposeString("mimeType", { description: "Media type of the image." }),
  }),
});

const Units = builder.objectRef<{ label: string; factor: number }>("Units").implement({
  description: "The display unit of an asset.",
  fields: (t) => ({
    label: t.exposeString("label", { description: "Display name of the unit." }),
    factor: t.exposeInt("factor", { description: "Minimum divisible units per display unit." }),
  }),
});

const ConfigurationItem = builder.prismaObject("ConfigurationItem", {
  description: "An asset the merchant accepts, with how to show it.",
  fields: (t) => ({
    label: t.exposeString("label", { description: "Display label of the asset." }),
    asset: t.exposeString("ledgerId", { description: "Dotted asset identifier: the ledger it is paid at." }),
    currency: t.exposeString("currency", { description: "The currency it accepts (a request's asset), e.g. NZD." }),
    account: t.exposeString("account", { nullable: true, description: "Account payments go to, if any." }),
    index: t.exposeInt("index", { description: "Position of the item, from 0." }),
    methods: t.field({ type: [PaymentMethodEnum], description: "Accepted payment methods.", resolve: (item) => item.methods }),
    icon: t.field({
      type: Icon,
      nullable: true,
      description: "Icon of the asset.",
      resolve: (item: Item) =>
        item.iconImage && item.iconMimeType ? { image: item.iconImage, mimeType: item.iconMimeType } : null,
    }),
    units: t.field({
      type: Units,
      description: "Display unit.",
      resolve: (item: Item) => ({ label: item.unitsLabel, factor: item.unitsFactor }),
    }),
    fractionalDigits: t.exposeInt("fractionalDigits", { description: "Fractional digits of the asset." }),
    precision: t.exposeInt("precision", { description: "Display precision." }),
  }),
});

const MerchantConfiguration = builder.objectRef<Configuration>("MerchantConfiguration").implement({
  description: "The configuration of a merchant or of one of its clients.",
  fields: (t) => ({
    merchantId: t.id({ description: "Merchant that owns the configuration.", resolve: (c) => c.merchant.id }),
    name: t.string({ description: "Merchant name.", resolve: (c) => c.merchant.name }),
    clientId: t.id({ nullable: true, description: "Client configuration, when one was asked for.", resolve: (c) => c.clientId }),
    items: t.field({ type: [ConfigurationItem], description: "One entry per accepted asset.", resolve: (c) => c.items }),
  }),
});

builder.queryFields((t) => ({
  merchantConfiguration: t.field({
    type: MerchantConfiguration,
    description: "The configuration items of the merchant (or of one of its clients).",
    extensions: parameterCodes(configurationInfoCodes),
    args: {
      merchantId: t.arg.id({ required: true, description: "The merchant (the key's own)." }),
      clientId: t.arg.id({ description: "A client configuration of the merchant." }),
    },
    resolve: async (_root, args, ctx) => getMerchantConfiguration(await ctx.domain(), args),
  }),
}));
