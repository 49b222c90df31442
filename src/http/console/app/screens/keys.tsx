/** The developers' keys screen: the merchant's API keys, listed, created (the key shown once) and revoked. */
import { useState } from "preact/hooks";
import { run, succeeded } from "../api.js";
import {
  ConsoleApiKeyCreateDocument,
  ConsoleApiKeyRevokeDocument,
  ConsoleApiKeyRollDocument,
  ConsoleApiKeysDocument,
  type ConsoleApiKeysQuery,
} from "../gql/graphql.js";
import { t } from "../messages.js";
import { DevelopersNav } from "./developers.js";
import { ErrorText, fieldText, Loading, Screen, useLoad, When, type ScreenProps } from "../ui.js";

export function KeysScreen({ session }: ScreenProps) {
  const keys = useLoad(() => run(session, ConsoleApiKeysDocument, {}), []);
  const [created, setCreated] = useState<string | null>(null);
  const [said, setSaid] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const act = async (change: () => Promise<void>) => {
    setError(null);
    setSaid(null);
    try {
      await change();
      keys.reload();
    } catch (failure) {
      setError(failure);
    }
  };
  const create = (event: SubmitEvent) => {
    event.preventDefault();
    const label = fieldText(event.currentTarget as HTMLFormElement, "label") || null;
    void act(async () => {
      const { apiKeyCreate } = await run(session, ConsoleApiKeyCreateDocument, { input: { label } });
      const made = succeeded(apiKeyCreate);
      if (made.__typename === "ApiKeyCreated") setCreated(made.key);
    });
  };
  const revoke = (prefix: string) => {
    if (!confirm(t("confirmRevoke", { prefix }))) return;
    setCreated(null);
    void act(async () => {
      const { apiKeyRevoke } = await run(session, ConsoleApiKeyRevokeDocument, { input: { prefix } });
      succeeded(apiKeyRevoke);
      setSaid(t("revokedKey", { prefix }));
    });
  };
  const roll = (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const input = { prefix: fieldText(form, "prefix"), overlapSeconds: Number(fieldText(form, "overlap")) };
    void act(async () => {
      const made = succeeded((await run(session, ConsoleApiKeyRollDocument, { input })).apiKeyRoll);
      if (made.__typename === "ApiKeyCreated") setCreated(made.key);
    });
  };
  const live = (keys.data?.apiKeys ?? []).filter((key) => !key.revokedAt || Date.parse(key.revokedAt) > Date.now());
  return (
    <Screen title={t("apiKeys")}>
      <DevelopersNav />
      <ErrorText error={keys.error ?? error} />
      {said && <p role="status">{said}</p>}
      {created && (
        <div class="new-key" role="status">
          <p>{t("newKey")}</p>
          <output>
            <code>{created}</code>
          </output>
        </div>
      )}
      {!session.readOnly && (
        <form class="filters" onSubmit={create}>
          <label>
            {t("keyLabel")}
            <input name="label" maxLength={64} autoComplete="off" />
          </label>
          <button type="submit">{t("createKey")}</button>
        </form>
      )}
      {!session.readOnly && live.length > 0 && <RollForm keys={live} onRoll={roll} />}
      {keys.data ? (
        <KeysTable keys={keys.data.apiKeys} readOnly={session.readOnly} onRevoke={revoke} />
      ) : (
        !keys.error && <Loading />
      )}
    </Screen>
  );
}

function KeysTable({
  keys,
  readOnly,
  onRevoke,
}: {
  keys: ConsoleApiKeysQuery["apiKeys"];
  readOnly: boolean;
  onRevoke: (prefix: string) => void;
}) {
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">{t("prefix")}</th>
          <th scope="col">{t("label")}</th>
          <th scope="col">{t("created")}</th>
          <th scope="col">{t("lastUsed")}</th>
          <th scope="col">{t("state")}</th>
        </tr>
      </thead>
      <tbody>
        {keys.map((key) => (
          <tr key={key.prefix}>
            <td>
              <code>{key.prefix}</code>
            </td>
            <td>{key.label ?? ""}</td>
            <td>
              <When at={key.createdAt} />
            </td>
            <td>
              <When at={key.lastUsedAt} />
            </td>
            <td>
              {key.revokedAt && Date.parse(key.revokedAt) <= Date.now() ? (
                <>
                  {t("revoked")} <When at={key.revokedAt} />
                </>
              ) : (
                <>
                  {t("active")}
                  {key.revokedAt && (
                    <>
                      {" "}
                      {t("revokesAt")} <When at={key.revokedAt} />
                    </>
                  )}{" "}
                  {!readOnly && (
                    <button type="button" onClick={() => onRevoke(key.prefix)} aria-label={`${t("revoke")} ${key.prefix}`}>
                      {t("revoke")}
                    </button>
                  )}
                </>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A key to roll, and how long the old one keeps working beside the new. */
function RollForm({ keys, onRoll }: { keys: ConsoleApiKeysQuery["apiKeys"]; onRoll: (event: SubmitEvent) => void }) {
  return (
    <form class="filters" onSubmit={onRoll}>
      <label>
        {t("rollKey")}
        <select name="prefix">
          {keys.map((key) => (
            <option key={key.prefix} value={key.prefix}>
              {key.prefix} {key.label ?? ""}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t("overlap")}
        <select name="overlap" defaultValue="3600">
          <option value="0">{t("overlapNone")}</option>
          <option value="3600">{t("overlapHour")}</option>
          <option value="86400">{t("overlapDay")}</option>
          <option value="604800">{t("overlapWeek")}</option>
        </select>
      </label>
      <button type="submit">{t("roll")}</button>
    </form>
  );
}
