/**
 * The merchant's requests: filtered by status, creation date and text, a page at a time, each row's
 * status kept live. The filters and the page are the address's query, so back and reload keep them.
 */
import { useEffect, useState } from "preact/hooks";
import { run, subscribe } from "../api.js";
import {
  ConsoleRequestChangedDocument,
  ConsoleRequestsDocument,
  type RequestFilter,
  type RequestStatus,
} from "../gql/graphql.js";
import { t } from "../messages.js";
import { navigate, route } from "../router.js";
import { ErrorText, fieldText, Loading, Screen, useLoad, type ScreenProps } from "../ui.js";
import { RequestsTable, statusText } from "./requests-table.js";

const PAGE = 20;
const STATUSES: RequestStatus[] = ["NEW", "PAID", "CANCELLED", "EXPIRED"];

/** A day typed in a date field (the browser's own time zone) as the instant it starts. */
const dayStart = (day: string, plusDays = 0) => {
  const [year, month, date] = day.split("-").map(Number);
  return new Date(year!, month! - 1, date! + plusDays).toISOString();
};

/** The list's filter, as the address's query names it. */
function filterOf(query: URLSearchParams): RequestFilter {
  const status = query.get("status") as RequestStatus | null;
  const from = query.get("from");
  const to = query.get("to");
  return {
    ...(status && STATUSES.includes(status) && { status: [status] }),
    ...(query.get("text") && { text: query.get("text") }),
    ...(from && { createdFrom: dayStart(from) }),
    ...(to && { createdTo: dayStart(to, 1) }),
  };
}

export function RequestsScreen({ session, units }: ScreenProps) {
  const query = route.value.searchParams;
  const search = query.toString();
  const list = useLoad(
    () => run(session, ConsoleRequestsDocument, { first: PAGE, after: query.get("after"), filter: filterOf(query) }),
    [search],
  );
  // Live: a request of the list that changes shows its new status.
  const [changed, setChanged] = useState<Record<string, RequestStatus>>({});
  useEffect(
    () =>
      subscribe(
        session,
        ConsoleRequestChangedDocument,
        {},
        {
          onNext: ({ paymentRequestChanged: { id, status } }) => setChanged((known) => ({ ...known, [id]: status })),
        },
      ),
    [],
  );
  const later = new URLSearchParams(query);
  const connection = list.data?.paymentRequests;
  if (connection?.pageInfo.endCursor) later.set("after", connection.pageInfo.endCursor);
  const first = new URLSearchParams(query);
  first.delete("after");
  return (
    <Screen title={t("requests")}>
      <Filters query={query} key={search} />
      <ErrorText error={list.error} />
      {connection ? (
        <>
          <RequestsTable
            rows={connection.edges.map(({ node }) => ({ ...node, status: changed[node.id] ?? node.status }))}
            units={units}
          />
          <p class="pages">
            {query.has("after") && <a href={`/console/requests?${first.toString()}`}>{t("firstPage")}</a>}{" "}
            {connection.pageInfo.hasNextPage && <a href={`/console/requests?${later.toString()}`}>{t("nextPage")}</a>}
          </p>
        </>
      ) : (
        !list.error && <Loading />
      )}
    </Screen>
  );
}

/** The list's filters, as the address's query holds them: applying them goes to their address. */
function Filters({ query }: { query: URLSearchParams }) {
  const apply = (event: SubmitEvent) => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const name of ["status", "from", "to", "text"]) {
      const value = fieldText(event.currentTarget as HTMLFormElement, name);
      if (value) next.set(name, value);
    }
    navigate(`/console/requests${next.size ? `?${next.toString()}` : ""}`);
  };
  return (
    <form class="filters" onSubmit={apply} aria-label={t("filters")}>
      <label>
        {t("status")}
        <select name="status" defaultValue={query.get("status") ?? ""}>
          <option value="">{t("anyStatus")}</option>
          {STATUSES.map((status) => (
            <option key={status} value={status}>
              {statusText(status)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t("createdFrom")}
        <input type="date" name="from" defaultValue={query.get("from") ?? ""} />
      </label>
      <label>
        {t("createdTo")}
        <input type="date" name="to" defaultValue={query.get("to") ?? ""} />
      </label>
      <label>
        {t("text")}
        <input type="search" name="text" maxLength={128} defaultValue={query.get("text") ?? ""} />
      </label>
      <button type="submit">{t("apply")}</button>
    </form>
  );
}
