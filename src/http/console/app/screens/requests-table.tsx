/** A table of requests, each linked to its page: the overview's latest and the requests screen's list. */
import type { ConsoleRequestsQuery } from "../gql/graphql.js";
import { t, type MessageKey } from "../messages.js";
import { Money, When, type UnitsByAsset } from "../ui.js";

export type RequestRow = ConsoleRequestsQuery["paymentRequests"]["edges"][number]["node"];

export const statusText = (status: string) => t(`status${status}` as MessageKey);

export function RequestsTable({ rows, units }: { rows: RequestRow[]; units: UnitsByAsset }) {
  if (!rows.length) return <p>{t("noRequests")}</p>;
  return (
    <table class="requests">
      <thead>
        <tr>
          <th scope="col">{t("code")}</th>
          <th scope="col">{t("amount")}</th>
          <th scope="col">{t("status")}</th>
          <th scope="col">{t("description")}</th>
          <th scope="col">{t("created")}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id}>
            <td>
              <a href={`/console/requests/${encodeURIComponent(row.id)}`}>{row.shortCode}</a>
            </td>
            <td>
              <Money amount={row.denomination.amount} asset={row.denomination.asset} units={units} />
            </td>
            <td>
              <span class={`status status-${row.status.toLowerCase()}`}>{statusText(row.status)}</span>
            </td>
            <td>{row.description ?? row.externalReference ?? ""}</td>
            <td>
              <When at={row.createdAt} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
