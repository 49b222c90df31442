/** The event catalogue: each type an endpoint may receive, when it is sent, a token's claims, and how to verify one. */
import { t, type MessageKey } from "../messages.js";
import { Screen, type ScreenProps } from "../ui.js";
import { DevelopersNav } from "./developers.js";

const SAMPLE_REQUEST = {
  requestId: "6bda8dc8-…",
  merchantId: "d319976e-…",
  externalReference: "order-1001",
  denomination: { asset: "NZD", amount: 300 },
};

/** Each type: when it is sent, and its object claim as the token carries it (abbreviated ids). */
const TYPES: [type: string, when: MessageKey, object: Record<string, unknown>][] = [
  [
    "payment.completed",
    "whenPayment",
    {
      transaction: {
        transactionId: "a3131f00-…",
        transactionType: "PURCHASE",
        ledger: "test.uplink",
        state: "completed",
        amount: 300,
        request: SAMPLE_REQUEST,
      },
    },
  ],
  [
    "refund.completed",
    "whenRefund",
    {
      transaction: {
        transactionId: "0e4c4d2a-…",
        transactionType: "REFUND",
        ledger: "test.uplink",
        state: "completed",
        amount: 100,
        request: SAMPLE_REQUEST,
      },
    },
  ],
  ["request.cancelled", "whenCancelled", { request: { ...SAMPLE_REQUEST, status: "cancelled" } }],
  ["request.expired", "whenExpired", { request: { ...SAMPLE_REQUEST, status: "expired" } }],
  ["ping", "whenPing", { endpoint: { endpointId: "5f1e…", url: "http://127.0.0.1:8080/hooks" } }],
];

export function CatalogueScreen(_props: ScreenProps) {
  const jwks = `${location.origin}/.well-known/jwks.json`;
  return (
    <Screen title={t("eventCatalogue")}>
      <DevelopersNav />
      <p>{t("catalogueIntro")}</p>
      <p>
        {t("verifyWith")} <a href={jwks}>{jwks}</a>
      </p>
      {TYPES.map(([type, when, object]) => (
        <section key={type} aria-labelledby={`type-${type}`}>
          <h3 id={`type-${type}`}>
            <code>{type}</code>
          </h3>
          <p>{t(when)}</p>
          <pre tabIndex={0} aria-label={t("sampleClaims", { type })}>
            {JSON.stringify(
              { iss: "payreq", iat: 1795756942, jti: "bfedb968-…", type, createdAt: "2026-11-27T05:22:22.270Z", ...object },
              null,
              2,
            )}
          </pre>
        </section>
      ))}
    </Screen>
  );
}
