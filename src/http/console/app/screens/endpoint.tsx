/**
 * One webhook endpoint: its health, its event types, enabled or not, a test event with its result,
 * a recovery since a time (with how many deliveries it would queue, asked first), and its latest
 * deliveries with each attempt, any of which can be sent again.
 */
import { useState } from "preact/hooks";
import { run, succeeded, type Session } from "../api.js";
import {
  ConsoleDeliveryRedeliverDocument,
  ConsoleEndpointDocument,
  ConsoleEndpointPingDocument,
  ConsoleEndpointRecoverDocument,
  ConsoleEndpointUpdateDocument,
  ConsoleRecoverableDocument,
  type ConsoleEndpointQuery,
} from "../gql/graphql.js";
import { t } from "../messages.js";
import { ErrorText, fieldText, Loading, Screen, useLoad, When, type ScreenProps } from "../ui.js";
import { chosenTypes, DevelopersNav, eventName, EventTypeChoice } from "./developers.js";

type Endpoint = NonNullable<ConsoleEndpointQuery["webhookEndpoint"]>;

/** Runs a change and says how it went: its message, or the API's refusal. */
function useChange(reload: () => void) {
  const [said, setSaid] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const change = async (work: () => Promise<string>) => {
    setSaid(null);
    setError(null);
    try {
      setSaid(await work());
      reload();
    } catch (failure) {
      setError(failure);
    }
  };
  return { said, error, change };
}

export function EndpointScreen({ session, id }: ScreenProps & { id: string }) {
  const read = useLoad(() => run(session, ConsoleEndpointDocument, { id }), [id]);
  const { said, error, change } = useChange(read.reload);
  const endpoint = read.data?.webhookEndpoint;
  if (!endpoint)
    return (
      <Screen title={t("endpoints")}>
        <DevelopersNav />
        <ErrorText error={read.error} />
        {!read.error && <Loading />}
      </Screen>
    );
  const update = (
    input: { enabled?: boolean; eventTypes?: ReturnType<typeof chosenTypes>; url?: string; description?: string | null },
    done: string,
  ) =>
    change(async () => {
      succeeded((await run(session, ConsoleEndpointUpdateDocument, { input: { id, ...input } })).webhookEndpointUpdate);
      return done;
    });
  const ping = () =>
    change(async () => {
      const result = succeeded((await run(session, ConsoleEndpointPingDocument, { id })).webhookEndpointPing);
      if (result.__typename !== "WebhookTestResult") return "";
      return result.delivered
        ? t("pingDelivered", { status: result.statusCode ?? "", ms: result.durationMs ?? "" })
        : t("pingFailed", { error: result.error ?? result.statusCode ?? result.outcome ?? "" });
    });
  return (
    <Screen title={endpoint.url}>
      <DevelopersNav />
      <Health endpoint={endpoint} />
      <div role="status">{said && <p>{said}</p>}</div>
      <ErrorText error={error} />
      {!session.readOnly && (
        <>
          <p class="actions">
            <button type="button" onClick={() => void ping()}>
              {t("sendTestEvent")}
            </button>{" "}
            <button
              type="button"
              class="secondary"
              onClick={() => void update({ enabled: !endpoint.enabled }, endpoint.enabled ? t("disabledNow") : t("enabledNow"))}
            >
              {endpoint.enabled ? t("disable") : t("enable")}
            </button>
          </p>
          <form
            class="stacked"
            key={`${endpoint.url} ${endpoint.eventTypes.join()}`}
            onSubmit={(event) => {
              event.preventDefault();
              const form = event.currentTarget;
              const changed = { url: fieldText(form, "url"), description: fieldText(form, "description") || null };
              void update({ ...changed, eventTypes: chosenTypes(form) }, t("saved"));
            }}
          >
            <h3>{t("editEndpoint")}</h3>
            <label>
              {t("url")}
              <input name="url" type="url" required defaultValue={endpoint.url} />
            </label>
            <label>
              {t("description")}
              <input name="description" maxLength={255} defaultValue={endpoint.description ?? ""} />
            </label>
            <EventTypeChoice chosen={endpoint.eventTypes} />
            <button type="submit">{t("save")}</button>
          </form>
          <Recover session={session} endpoint={endpoint} onDone={read.reload} />
        </>
      )}
      <Deliveries session={session} endpoint={endpoint} onDone={read.reload} />
    </Screen>
  );
}

const Health = ({ endpoint }: { endpoint: Endpoint }) => (
  <dl class="facts">
    <dt>{t("state")}</dt>
    <dd>
      {endpoint.enabled ? t("enabled") : t("disabled")}
      {endpoint.disabledReason && ` (${endpoint.disabledReason})`}
    </dd>
    <dt>{t("eventTypes")}</dt>
    <dd>{endpoint.eventTypes.map(eventName).join(", ")}</dd>
    <dt>{t("lastAttempt")}</dt>
    <dd>
      {endpoint.health.lastAttemptAt ? (
        <>
          <When at={endpoint.health.lastAttemptAt} /> · {endpoint.health.lastOutcome}
        </>
      ) : (
        "—"
      )}
    </dd>
    <dt>{t("failingSince")}</dt>
    <dd>{endpoint.health.failingSince ? <When at={endpoint.health.failingSince} /> : "—"}</dd>
    <dt>{t("successLastDay")}</dt>
    <dd>
      {endpoint.health.successShareLastDay === null || endpoint.health.successShareLastDay === undefined
        ? "—"
        : `${Math.round(endpoint.health.successShareLastDay * 100)} % (${endpoint.health.attemptsLastDay})`}
    </dd>
  </dl>
);

/** A local date and time as a datetime-local field holds it. */
const localInput = (at: Date) => new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

/** Recovery: a time, then how many deliveries it would queue, then the recovery itself. */
function Recover({ session, endpoint, onDone }: { session: Session; endpoint: Endpoint; onDone: () => void }) {
  const [since, setSince] = useState(
    localInput(endpoint.health.failingSince ? new Date(endpoint.health.failingSince) : new Date(Date.now() - 3_600_000)),
  );
  const [count, setCount] = useState<number | null>(null);
  const { said, error, change } = useChange(onDone);
  const instant = () => new Date(since).toISOString();
  const check = () =>
    change(async () => {
      const { webhookEndpoint } = await run(session, ConsoleRecoverableDocument, { id: endpoint.id, since: instant() });
      setCount(webhookEndpoint?.recoverable ?? 0);
      return "";
    });
  const recover = () =>
    change(async () => {
      const result = succeeded(
        (await run(session, ConsoleEndpointRecoverDocument, { input: { id: endpoint.id, since: instant() } }))
          .webhookEndpointRecover,
      );
      setCount(null);
      return result.__typename === "WebhookRecovery" ? t("recovered", { n: result.queued }) : "";
    });
  return (
    <section aria-labelledby="recover-heading">
      <h3 id="recover-heading">{t("recover")}</h3>
      <div class="refund">
        <label>
          {t("recoverSince")}
          <input type="datetime-local" value={since} onInput={(event) => (setSince(event.currentTarget.value), setCount(null))} />
        </label>
        <button type="button" class="secondary" onClick={() => void check()}>
          {t("checkRecovery")}
        </button>
      </div>
      {count !== null && (
        <div class="confirm">
          <p>{t("wouldQueue", { n: count })}</p>
          {count > 0 && (
            <button type="button" onClick={() => void recover()}>
              {t("recoverNow", { n: count })}
            </button>
          )}
        </div>
      )}
      <div role="status">{said && <p>{said}</p>}</div>
      <ErrorText error={error} />
    </section>
  );
}

function Deliveries({ session, endpoint, onDone }: { session: Session; endpoint: Endpoint; onDone: () => void }) {
  const { said, error, change } = useChange(onDone);
  const redeliver = (id: string) =>
    change(async () => {
      succeeded((await run(session, ConsoleDeliveryRedeliverDocument, { id })).webhookDeliveryRedeliver);
      return t("redelivering");
    });
  return (
    <section aria-labelledby="deliveries-heading">
      <h3 id="deliveries-heading">{t("deliveries")}</h3>
      <div role="status">{said && <p>{said}</p>}</div>
      <ErrorText error={error} />
      {endpoint.deliveries.length === 0 && <p>{t("noWebhookEvents")}</p>}
      <ol class="deliveries">
        {endpoint.deliveries.map((delivery) => (
          <li key={delivery.id} class="delivery">
            <p>
              <code>{eventName(delivery.type)}</code> · <strong>{delivery.state}</strong> · <When at={delivery.createdAt} />
              {delivery.state === "PENDING" && (
                <>
                  {" "}
                  · {t("nextAttempt")}: <When at={delivery.nextAttemptAt} />
                </>
              )}
              {!session.readOnly && delivery.type !== "PING" && delivery.state !== "PENDING" && (
                <>
                  {" "}
                  <button
                    type="button"
                    class="secondary"
                    onClick={() => void redeliver(delivery.id)}
                    aria-label={`${t("redeliver")} ${eventName(delivery.type)} ${delivery.createdAt}`}
                  >
                    {t("redeliver")}
                  </button>
                </>
              )}
            </p>
            {delivery.attempts.length > 0 && (
              <table class="attempts">
                <thead>
                  <tr>
                    <th scope="col">#</th>
                    <th scope="col">{t("startedAt")}</th>
                    <th scope="col">{t("outcome")}</th>
                    <th scope="col">{t("statusCode")}</th>
                    <th scope="col">{t("duration")}</th>
                    <th scope="col">{t("lastError")}</th>
                  </tr>
                </thead>
                <tbody>
                  {delivery.attempts.map((attempt) => (
                    <tr key={attempt.number}>
                      <td>{attempt.number}</td>
                      <td>
                        <When at={attempt.startedAt} />
                      </td>
                      <td>{attempt.outcome}</td>
                      <td>{attempt.statusCode ?? "—"}</td>
                      <td>
                        {attempt.durationMs === null || attempt.durationMs === undefined ? "—" : `${attempt.durationMs} ms`}
                      </td>
                      <td>{attempt.error ?? "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
