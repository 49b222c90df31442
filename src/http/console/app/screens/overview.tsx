/**
 * The overview: for today, the last 7 or the last 30 days of the browser's time zone, each asset's
 * requests created and paid, paid and refunded amounts, conversion and the median time to pay; a
 * chart of payments per hour or day; and the latest requests.
 */
import { run } from "../api.js";
import { ConsoleRequestsDocument, ConsoleStatsDocument, type ConsoleStatsQuery } from "../gql/graphql.js";
import { t, type MessageKey } from "../messages.js";
import { formatAmount } from "../money.js";
import { route } from "../router.js";
import { ErrorText, Loading, Screen, unitsOf, useLoad, type ScreenProps, type UnitsByAsset } from "../ui.js";
import { PaymentsChart } from "./chart.js";
import { RequestsTable } from "./requests-table.js";

const PERIODS = {
  today: { days: 1, bucket: "HOUR" },
  "7d": { days: 7, bucket: "DAY" },
  "30d": { days: 30, bucket: "DAY" },
} as const;
type Period = keyof typeof PERIODS;
const PERIOD_NAMES: Record<Period, MessageKey> = { today: "today", "7d": "last7", "30d": "last30" };

const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The period's days, ending with today's, as [from, to) instants of the browser's time zone. */
function rangeOf(period: Period) {
  const now = new Date();
  const from = new Date(now.getFullYear(), now.getMonth(), now.getDate() - PERIODS[period].days + 1);
  const to = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return { from: from.toISOString(), to: to.toISOString(), bucket: PERIODS[period].bucket, timeZone };
}

export function OverviewScreen({ session, units }: ScreenProps) {
  const asked = route.value.searchParams.get("period");
  const period: Period = asked && asked in PERIODS ? (asked as Period) : "today";
  const stats = useLoad(() => run(session, ConsoleStatsDocument, rangeOf(period)), [period]);
  const latest = useLoad(() => run(session, ConsoleRequestsDocument, { first: 5 }), []);
  return (
    <Screen title={t("overview")}>
      <nav aria-label={t("period")} class="periods">
        {(Object.keys(PERIODS) as Period[]).map((name) => (
          <a key={name} href={`/console?period=${name}`} aria-current={name === period ? "page" : undefined}>
            {t(PERIOD_NAMES[name])}
          </a>
        ))}
      </nav>
      <ErrorText error={stats.error} />
      {stats.data ? (
        <Takings stats={stats.data.merchantStats} units={units} bucket={PERIODS[period].bucket} />
      ) : (
        !stats.error && <Loading />
      )}
      <h3>{t("latestRequests")}</h3>
      <ErrorText error={latest.error} />
      {latest.data ? (
        <RequestsTable rows={latest.data.paymentRequests.edges.map((edge) => edge.node)} units={units} />
      ) : (
        !latest.error && <Loading />
      )}
    </Screen>
  );
}

const percent = (part: number, whole: number) => (whole ? `${Math.round((100 * part) / whole)} %` : "—");

function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return "—";
  if (seconds < 120) return t("seconds", { n: seconds });
  if (seconds < 7200) return t("minutes", { n: Math.round(seconds / 60) });
  return t("hours", { n: Math.round(seconds / 3600) });
}

function Takings({
  stats,
  units,
  bucket,
}: {
  stats: ConsoleStatsQuery["merchantStats"];
  units: UnitsByAsset;
  bucket: "HOUR" | "DAY";
}) {
  const label = (start: Date) =>
    bucket === "HOUR" ? start.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : start.toLocaleDateString();
  return (
    <>
      {stats.totals.map((total) => {
        const shown = unitsOf(units, total.asset);
        const rows = stats.buckets
          .filter((row) => row.asset === total.asset)
          .map((row) => ({
            start: new Date(row.start!),
            label: label(new Date(row.start!)),
            paid: row.paid,
            paidAmount: row.paidAmount,
          }));
        return (
          <section key={total.asset} class="takings" aria-labelledby={`takings-${total.asset}`}>
            <h3 id={`takings-${total.asset}`}>{shown.label}</h3>
            <dl class="figures">
              <div>
                <dt>{t("createdCount")}</dt>
                <dd>{total.created}</dd>
              </div>
              <div>
                <dt>{t("paidCount")}</dt>
                <dd>{total.paid}</dd>
              </div>
              <div>
                <dt>{t("paidAmountLabel")}</dt>
                <dd>{formatAmount(total.paidAmount, shown)}</dd>
              </div>
              <div>
                <dt>{t("refundedAmount")}</dt>
                <dd>{formatAmount(total.refundedAmount, shown)}</dd>
              </div>
              <div>
                <dt>{t("conversion")}</dt>
                <dd>{percent(total.paid, total.created)}</dd>
              </div>
              <div>
                <dt>{t("medianToPay")}</dt>
                <dd>{duration(stats.medianSecondsToPay)}</dd>
              </div>
            </dl>
            <PaymentsChart
              rows={rows}
              units={shown}
              title={t(bucket === "HOUR" ? "perHour" : "perDay", { asset: shown.label })}
            />
          </section>
        );
      })}
    </>
  );
}
