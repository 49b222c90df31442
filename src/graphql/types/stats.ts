import { merchantStats, type StatsRow } from "../../domain/stats/merchant-stats.js";
import { builder } from "../builder.js";

const StatsBucketEnum = builder.enumType("StatsBucket", {
  description: "How merchantStats divides its range: the merchant's local hours or days.",
  values: {
    HOUR: { description: "An hour of the time zone's clock." },
    DAY: {
      description: "A day of the time zone's calendar, midnight to midnight (23 or 25 hours across a daylight-saving change).",
    },
  },
});

const StatsRowRef = builder.objectRef<StatsRow>("StatsRow").implement({
  description: "One asset's figures over a bucket, or over the whole range (in totals).",
  fields: (t) => ({
    start: t.expose("start", { type: "DateTime", nullable: true, description: "The bucket's first instant; null in totals." }),
    asset: t.exposeString("asset", { description: "The requests' asset, e.g. NZD." }),
    created: t.exposeInt("created", { description: "Requests created in it." }),
    paid: t.exposeInt("paid", { description: "Payments completed in it (whenever their requests were created)." }),
    paidAmount: t.field({
      type: "Amount",
      description: "The amount those payments paid, in minimum units.",
      resolve: (row) => row.paidAmount,
    }),
    refundedAmount: t.field({
      type: "Amount",
      description: "The amount refunded in it, in minimum units.",
      resolve: (row) => row.refundedAmount,
    }),
  }),
});

const MerchantStatsRef = builder
  .objectRef<{ buckets: StatsRow[]; totals: StatsRow[]; medianSecondsToPay: number | null }>("MerchantStats")
  .implement({
    description: "The merchant's takings over a range.",
    fields: (t) => ({
      buckets: t.field({
        type: [StatsRowRef],
        description: "Every bucket of the range, empty ones included, one row for each asset the merchant has; oldest first.",
        resolve: (stats) => stats.buckets,
      }),
      totals: t.field({
        type: [StatsRowRef],
        description: "Each asset's figures over the whole range.",
        resolve: (stats) => stats.totals,
      }),
      medianSecondsToPay: t.exposeInt("medianSecondsToPay", {
        nullable: true,
        description:
          "The median time from a request's creation to its payment, over the payments of the range; null without any.",
      }),
    }),
  });

builder.queryFields((t) => ({
  merchantStats: t.field({
    type: MerchantStatsRef,
    description:
      "The merchant's requests, payments and refunds in [from, to), by the hour (at most 31 days) or the day (at most 400), in an IANA time zone (default UTC). Merchant keys and console sessions.",
    args: {
      from: t.arg({ type: "DateTime", required: true, description: "The range's first instant." }),
      to: t.arg({ type: "DateTime", required: true, description: "The instant after the range." }),
      bucket: t.arg({ type: StatsBucketEnum, required: true, description: "HOUR or DAY." }),
      timeZone: t.arg.string({ description: "An IANA time zone name, e.g. Pacific/Auckland; UTC when not given." }),
    },
    resolve: async (_root, args, ctx) => merchantStats(await ctx.reads.domain(), args),
  }),
}));
