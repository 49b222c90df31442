/**
 * One request: its payment options, its payment and refunds, its activity and its notifications;
 * cancelled while open, refunded (in full or in part, after a confirmation that says what remains)
 * once paid. Its status is kept live.
 */
import { useEffect, useState } from "preact/hooks";
import { run, subscribe, succeeded, type Session } from "../api.js";
import {
  ConsoleRefundDocument,
  ConsoleRequestCancelDocument,
  ConsoleRequestChangedDocument,
  ConsoleRequestDocument,
  type ConsoleRequestQuery,
} from "../gql/graphql.js";
import { t } from "../messages.js";
import { amountText, formatAmount, parseAmount, type Units } from "../money.js";
import {
  Confirm,
  ErrorText,
  fieldText,
  Loading,
  Money,
  Screen,
  unitsOf,
  useFocusAfterAsking,
  useLoad,
  When,
  type ScreenProps,
} from "../ui.js";
import { statusText } from "./requests-table.js";

type Request = NonNullable<ConsoleRequestQuery["paymentRequest"]>;

export function RequestScreen({ session, units, id }: ScreenProps & { id: string }) {
  const read = useLoad(() => run(session, ConsoleRequestDocument, { id }), [id]);
  useEffect(() => subscribe(session, ConsoleRequestChangedDocument, { requestId: id }, { onNext: read.reload }), [id]);
  const request = read.data?.paymentRequest;
  if (!request)
    return (
      <Screen title={t("requests")}>
        <ErrorText error={read.error} />
        {!read.error && <Loading />}
      </Screen>
    );
  const shown = unitsOf(units, request.denomination.asset);
  const money = (amount: number) => <Money amount={amount} asset={request.denomination.asset} units={units} />;
  return (
    <Screen title={t("requestTitle", { code: request.shortCode })}>
      <dl class="facts">
        <dt>{t("amount")}</dt>
        <dd>{money(request.denomination.amount)}</dd>
        <dt>{t("status")}</dt>
        <dd>{statusText(request.status)}</dd>
        <dt>{t("description")}</dt>
        <dd>{request.description ?? "—"}</dd>
        <dt>{t("reference")}</dt>
        <dd>{request.externalReference ?? "—"}</dd>
        <dt>{t("created")}</dt>
        <dd>
          <When at={request.createdAt} />
        </dd>
        <dt>{t("expires")}</dt>
        <dd>
          <When at={request.expiresAt} />
        </dd>
        <dt>{t("payUrl")}</dt>
        <dd>
          <a href={request.payUrl}>{request.payUrl}</a>
        </dd>
      </dl>
      {request.status === "NEW" && !session.readOnly && <CancelRequest session={session} id={request.id} onDone={read.reload} />}
      <h3>{t("paymentOptions")}</h3>
      <ul>
        {request.payments.map((option) => (
          <li key={option.ledger}>
            {option.ledger}: {money(option.amount)} ({option.methods.join(", ")})
          </li>
        ))}
      </ul>
      <Payment session={session} request={request} shown={shown} money={money} onRefund={read.reload} />
      <Activity request={request} />
      <Notifications request={request} />
    </Screen>
  );
}

function Payment({
  session,
  request,
  shown,
  money,
  onRefund,
}: {
  session: Session;
  request: Request;
  shown: Units;
  money: (amount: number) => preact.JSX.Element;
  onRefund: () => void;
}) {
  const paid = request.paidBy;
  if (!paid) return null;
  return (
    <>
      <h3>{t("paidBy")}</h3>
      <dl class="facts">
        <dt>{t("transaction")}</dt>
        <dd>{paid.id}</dd>
        <dt>{t("ledger")}</dt>
        <dd>{paid.ledger}</dd>
        <dt>{t("account")}</dt>
        <dd>{paid.account}</dd>
        <dt>{t("amount")}</dt>
        <dd>{money(paid.amount)}</dd>
      </dl>
      <h3>{t("refunds")}</h3>
      {request.refunds.length ? (
        <ul>
          {request.refunds.map((refund) => (
            <li key={refund.id}>
              {money(refund.amount)} · <When at={refund.createdAt} />
            </li>
          ))}
        </ul>
      ) : (
        <p>{t("noRefunds")}</p>
      )}
      <p class="refundable">{t("refundable", { amount: formatAmount(paid.refundableAmount ?? 0, shown) })}</p>
      {!session.readOnly && (
        <RefundForm
          session={session}
          transactionId={paid.id}
          refundable={paid.refundableAmount ?? 0}
          shown={shown}
          onDone={onRefund}
        />
      )}
    </>
  );
}

/** A refund's reference: random, from the browser's generator (which, unlike randomUUID, works over plain http). */
function newReference(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `console-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/** A refund: the amount (the whole of what remains, unless changed), then a confirmation that says what will remain. */
function RefundForm({
  session,
  transactionId,
  refundable,
  shown,
  onDone,
}: {
  session: Session;
  transactionId: string;
  refundable: number;
  shown: Units;
  onDone: () => void;
}) {
  const [amount, setAmount] = useState<number | null>(null);
  // Each refund the console asks for has a reference of its own: a purchase may be refunded in
  // several parts, and a confirmation sent twice is one refund.
  const [reference, setReference] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const amountInput = useFocusAfterAsking<HTMLInputElement>(amount !== null);
  // What remains is offered again after each refund, in the same field (which keeps the focus).
  useEffect(() => {
    if (amountInput.current) amountInput.current.value = refundable > 0 ? amountText(refundable, shown.fractionalDigits) : "";
  }, [refundable]);
  const ask = (event: SubmitEvent) => {
    event.preventDefault();
    const typed = parseAmount(fieldText(event.currentTarget as HTMLFormElement, "amount"), shown.fractionalDigits);
    setDone(null);
    if (typed === null) return setError(new Error(t("amountInvalid")));
    setError(null);
    setAmount(typed);
    setReference(newReference());
  };
  const confirm = async () => {
    try {
      const { transactionRefund } = await run(session, ConsoleRefundDocument, {
        input: { transactionId, amount: amount!, externalReference: reference },
      });
      succeeded(transactionRefund);
      setDone(t("refunded", { amount: formatAmount(amount!, shown) }));
      onDone();
    } catch (failure) {
      setError(failure);
    } finally {
      setAmount(null);
    }
  };
  return (
    <>
      {amount === null ? (
        <form class="refund" onSubmit={ask}>
          <label>
            {t("refundAmount")}
            <input
              ref={amountInput}
              name="amount"
              inputMode="decimal"
              autoComplete="off"
              required
              defaultValue={refundable > 0 ? amountText(refundable, shown.fractionalDigits) : ""}
            />
          </label>
          <button type="submit">{t("refund")}</button>
        </form>
      ) : (
        <Confirm
          question={t("confirmRefund", {
            amount: formatAmount(amount, shown),
            remaining: formatAmount(Math.max(0, refundable - amount), shown),
          })}
          onConfirm={() => void confirm()}
          onDecline={() => setAmount(null)}
          decline={t("cancel")}
        />
      )}
      <ErrorText error={error} />
      {done && <p role="status">{done}</p>}
    </>
  );
}

function CancelRequest({ session, id, onDone }: { session: Session; id: string; onDone: () => void }) {
  const [asking, setAsking] = useState(false);
  const cancelButton = useFocusAfterAsking<HTMLButtonElement>(asking);
  const [error, setError] = useState<unknown>(null);
  const cancel = async () => {
    try {
      const { requestCancel } = await run(session, ConsoleRequestCancelDocument, { input: { requestId: id } });
      succeeded(requestCancel);
      onDone();
    } catch (failure) {
      setError(failure);
    } finally {
      setAsking(false);
    }
  };
  return (
    <div>
      {asking ? (
        <Confirm
          question={t("confirmCancel")}
          onConfirm={() => void cancel()}
          onDecline={() => setAsking(false)}
          decline={t("keep")}
        />
      ) : (
        <button type="button" ref={cancelButton} onClick={() => setAsking(true)}>
          {t("cancelRequest")}
        </button>
      )}
      <ErrorText error={error} />
    </div>
  );
}

const Activity = ({ request }: { request: Request }) => (
  <>
    <h3>{t("activity")}</h3>
    <ol class="timeline">
      {request.activities.map((entry, index) => (
        <li key={index}>
          <When at={entry.at} /> · {entry.action} · {entry.actor} · {entry.outcome}
        </li>
      ))}
    </ol>
  </>
);

const Notifications = ({ request }: { request: Request }) => (
  <>
    <h3>{t("webhookEvents")}</h3>
    {request.webhookEvents.length ? (
      <table>
        <thead>
          <tr>
            <th scope="col">{t("url")}</th>
            <th scope="col">{t("state")}</th>
            <th scope="col">{t("attempts")}</th>
            <th scope="col">{t("nextAttempt")}</th>
            <th scope="col">{t("lastError")}</th>
          </tr>
        </thead>
        <tbody>
          {request.webhookEvents.map((event) => (
            <tr key={event.id}>
              <td>{event.url}</td>
              <td>{event.state}</td>
              <td>{event.attemptCount}</td>
              <td>{event.deliveredAt ? "—" : <When at={event.nextAttemptAt} />}</td>
              <td>{event.lastError ?? "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    ) : (
      <p>{t("noWebhookEvents")}</p>
    )}
  </>
);
