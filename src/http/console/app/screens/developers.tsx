/**
 * The developers' section: webhook endpoints (listed, registered), and beside them the keys
 * (keys.tsx) and the event catalogue (catalogue.tsx).
 */
import { useState } from "preact/hooks";
import { run, succeeded } from "../api.js";
import { ConsoleEndpointCreateDocument, ConsoleEndpointsDocument, type EventType } from "../gql/graphql.js";
import { t, type MessageKey } from "../messages.js";
import { navigate, route } from "../router.js";
import { ErrorText, fieldText, Loading, Screen, useLoad, When, type ScreenProps } from "../ui.js";

const PAGES: [path: string, name: MessageKey][] = [
  ["/console/developers", "endpoints"],
  ["/console/developers/keys", "apiKeys"],
  ["/console/developers/events", "eventCatalogue"],
];

export const DevelopersNav = () => (
  <nav aria-label={t("developers")} class="periods">
    {PAGES.map(([path, name]) => (
      <a key={path} href={path} aria-current={route.value.pathname === path ? "page" : undefined}>
        {t(name)}
      </a>
    ))}
  </nav>
);

/** The types an endpoint may subscribe to (a test event is sent on request only). */
export const EVENT_TYPES: EventType[] = ["PAYMENT_COMPLETED", "REFUND_COMPLETED", "REQUEST_CANCELLED", "REQUEST_EXPIRED"];
export const eventName = (type: EventType) => type.toLowerCase().replace("_", ".");

/** A choice of event types, as checkboxes named `eventType`. */
export const EventTypeChoice = ({ chosen }: { chosen: readonly EventType[] }) => (
  <fieldset class="event-types">
    <legend>{t("eventTypes")}</legend>
    {EVENT_TYPES.map((type) => (
      <label key={type} class="check">
        <input type="checkbox" name="eventType" value={type} defaultChecked={chosen.includes(type)} />
        <code>{eventName(type)}</code>
      </label>
    ))}
  </fieldset>
);

export const chosenTypes = (form: HTMLFormElement) => new FormData(form).getAll("eventType") as EventType[];

export function EndpointsScreen({ session }: ScreenProps) {
  const endpoints = useLoad(() => run(session, ConsoleEndpointsDocument, {}), []);
  const [error, setError] = useState<unknown>(null);
  const create = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    setError(null);
    try {
      const { webhookEndpointCreate } = await run(session, ConsoleEndpointCreateDocument, {
        input: {
          url: fieldText(form, "url"),
          description: fieldText(form, "description") || null,
          eventTypes: chosenTypes(form),
        },
      });
      const made = succeeded(webhookEndpointCreate);
      if (made.__typename === "WebhookEndpoint") navigate(`/console/developers/endpoints/${made.id}`);
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <Screen title={t("endpoints")}>
      <DevelopersNav />
      <ErrorText error={endpoints.error} />
      {endpoints.data ? (
        endpoints.data.webhookEndpoints.length ? (
          <table class="endpoints">
            <thead>
              <tr>
                <th scope="col">{t("url")}</th>
                <th scope="col">{t("eventTypes")}</th>
                <th scope="col">{t("state")}</th>
                <th scope="col">{t("failingSince")}</th>
              </tr>
            </thead>
            <tbody>
              {endpoints.data.webhookEndpoints.map((endpoint) => (
                <tr key={endpoint.id}>
                  <td>
                    <a href={`/console/developers/endpoints/${endpoint.id}`}>{endpoint.url}</a>
                  </td>
                  <td>{endpoint.eventTypes.map(eventName).join(", ")}</td>
                  <td>{endpoint.enabled ? t("enabled") : t("disabled")}</td>
                  <td>{endpoint.health.failingSince ? <When at={endpoint.health.failingSince} /> : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : (
          <p>{t("noEndpoints")}</p>
        )
      ) : (
        !endpoints.error && <Loading />
      )}
      {!session.readOnly && (
        <form class="stacked" onSubmit={(event) => void create(event)}>
          <h3>{t("addEndpoint")}</h3>
          <label>
            {t("url")}
            <input name="url" type="url" required placeholder="http://127.0.0.1:8080/hooks" />
          </label>
          <label>
            {t("description")}
            <input name="description" maxLength={255} />
          </label>
          <EventTypeChoice chosen={["PAYMENT_COMPLETED", "REFUND_COMPLETED"]} />
          <ErrorText error={error} />
          <button type="submit">{t("addEndpoint")}</button>
        </form>
      )}
    </Screen>
  );
}
