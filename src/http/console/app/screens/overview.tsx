/** The overview: the merchant's latest requests. */
import { run } from "../api.js";
import { ConsoleRequestsDocument } from "../gql/graphql.js";
import { t } from "../messages.js";
import { ErrorText, Loading, Screen, useLoad, type ScreenProps } from "../ui.js";
import { RequestsTable } from "./requests-table.js";

export function OverviewScreen({ session, units }: ScreenProps) {
  const latest = useLoad(() => run(session, ConsoleRequestsDocument, { first: 5 }), []);
  return (
    <Screen title={t("overview")}>
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
