/**
 * Charging at the counter: an amount and a note make a request, whose QR code and short code fill
 * the screen until the shopper pays it (followed live by a subscription) or it expires.
 */
import { useEffect, useState } from "preact/hooks";
import { run, subscribe, succeeded, type Session } from "../api.js";
import {
  ConsoleRequestChangedDocument,
  ConsoleRequestCreateDocument,
  ConsoleRequestDocument,
  type RequestStatus,
} from "../gql/graphql.js";
import { t } from "../messages.js";
import { formatAmount, parseAmount } from "../money.js";
import { ErrorText, fieldText, Screen, unitsOf, type ScreenProps } from "../ui.js";

interface Charge {
  id: string;
  shortCode: string;
  expiresAt: string;
  amount: string;
}

export function ChargeScreen(props: ScreenProps) {
  const [charge, setCharge] = useState<Charge | null>(null);
  return (
    <Screen title={t("charge")}>
      {props.session.readOnly ? (
        <p>{t("readOnlyNoChange")}</p>
      ) : charge ? (
        <Counter session={props.session} charge={charge} onDone={() => setCharge(null)} />
      ) : (
        <ChargeForm {...props} onCharge={setCharge} />
      )}
    </Screen>
  );
}

function ChargeForm({ session, units, onCharge }: ScreenProps & { onCharge: (charge: Charge) => void }) {
  const assets = [...units.keys()];
  const [asset, setAsset] = useState(assets[0] ?? "");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const shown = unitsOf(units, asset);
    const amount = parseAmount(fieldText(form, "amount"), shown.fractionalDigits);
    if (amount === null) return setError(new Error(t("amountInvalid")));
    setBusy(true);
    setError(null);
    try {
      const description = fieldText(form, "note") || null;
      const { requestCreate } = await run(session, ConsoleRequestCreateDocument, {
        input: { merchantId: session.merchantId, amount, asset, description },
      });
      const created = succeeded(requestCreate);
      if (created.__typename !== "PaymentRequest") return;
      onCharge({
        id: created.id,
        shortCode: created.shortCode,
        expiresAt: created.expiresAt,
        amount: formatAmount(amount, shown),
      });
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="charge" onSubmit={(event) => void submit(event)}>
      <label>
        {t("amount")}
        <input name="amount" inputMode="decimal" autoComplete="off" required aria-describedby="charge-error" />
      </label>
      {assets.length > 1 && (
        <label>
          {t("asset")}
          <select value={asset} onChange={(event) => setAsset(event.currentTarget.value)}>
            {assets.map((code) => (
              <option key={code} value={code}>
                {unitsOf(units, code).label}
              </option>
            ))}
          </select>
        </label>
      )}
      <label>
        {t("note")}
        <input name="note" maxLength={255} autoComplete="off" />
      </label>
      <div id="charge-error">
        <ErrorText error={error} />
      </div>
      <button type="submit" disabled={busy}>
        {busy ? t("creating") : t("createCharge")}
      </button>
    </form>
  );
}

/** The charge on the counter's screen, followed until it is paid, expires or is cancelled. */
function Counter({ session, charge, onDone }: { session: Session; charge: Charge; onDone: () => void }) {
  const [status, setStatus] = useState<RequestStatus>("NEW");
  const [live, setLive] = useState(false);
  useEffect(() => {
    // The status as it is now: once the subscription is open (a payment before it is not missed), and at the expiry.
    const reread = () =>
      void run(session, ConsoleRequestDocument, { id: charge.id }).then(
        ({ paymentRequest }) => paymentRequest && setStatus(paymentRequest.status),
        // The subscription still follows it; the next change or the expiry reads it again.
        () => {},
      );
    const stop = subscribe(
      session,
      ConsoleRequestChangedDocument,
      { requestId: charge.id },
      {
        onOpen: () => {
          setLive(true);
          reread();
        },
        onNext: ({ paymentRequestChanged }) => setStatus(paymentRequestChanged.status),
      },
    );
    const expiry = setTimeout(reread, Math.max(0, Date.parse(charge.expiresAt) - Date.now()) + 1000);
    return () => {
      stop();
      clearTimeout(expiry);
    };
  }, [charge.id]);
  return (
    <div class={`counter counter-${status.toLowerCase()}`} data-live={live}>
      {status === "NEW" ? (
        <>
          <p class="counter-amount">{t("scanToPay", { amount: charge.amount })}</p>
          <img
            class="counter-qr"
            src={`/pay/${encodeURIComponent(charge.shortCode)}/qr.svg`}
            alt={t("qrLabel", { amount: charge.amount })}
            width={320}
            height={320}
          />
          <p>
            {t("shortCode")}: <strong class="counter-code">{charge.shortCode}</strong>
          </p>
        </>
      ) : (
        <p class="counter-outcome">
          {status === "PAID"
            ? t("paidAmount", { amount: charge.amount })
            : status === "EXPIRED"
              ? t("expiredCharge")
              : t("statusCANCELLED")}
        </p>
      )}
      <p class="counter-status" role="status">
        {t(`status${status}`)}
      </p>
      <button type="button" onClick={onDone}>
        {t("newCharge")}
      </button>
    </div>
  );
}
