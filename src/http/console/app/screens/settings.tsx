/**
 * Settings: the pay page's branding (display name, logo, accent colour, refused by the API when
 * unfit), and the merchant's console sessions, each of which can be ended.
 */
import { useState } from "preact/hooks";
import { run, succeeded, type Session } from "../api.js";
import {
  ConsoleBrandingUpdateDocument,
  ConsoleSessionEndDocument,
  ConsoleSettingsDocument,
  type ConsoleSettingsQuery,
} from "../gql/graphql.js";
import { t } from "../messages.js";
import { ErrorText, fieldText, Loading, Screen, useLoad, When, type ScreenProps } from "../ui.js";

/** A chosen file as a `data:` URL, as the API takes a logo. */
const dataUrlOf = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error("The file could not be read."));
    reader.readAsDataURL(file);
  });

export function SettingsScreen({ session }: ScreenProps) {
  const settings = useLoad(() => run(session, ConsoleSettingsDocument, {}), []);
  return (
    <Screen title={t("settings")}>
      <ErrorText error={settings.error} />
      {settings.data ? (
        <>
          <Branding session={session} branding={settings.data.merchantBranding} onDone={settings.reload} />
          <Sessions session={session} sessions={settings.data.consoleSessions} onDone={settings.reload} />
        </>
      ) : (
        !settings.error && <Loading />
      )}
    </Screen>
  );
}

function Branding({
  session,
  branding,
  onDone,
}: {
  session: Session;
  branding: ConsoleSettingsQuery["merchantBranding"];
  onDone: () => void;
}) {
  const [said, setSaid] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    const form = event.currentTarget as HTMLFormElement;
    const file = (form.elements.namedItem("logo") as HTMLInputElement).files?.[0];
    setSaid(null);
    setError(null);
    try {
      const input = {
        displayName: fieldText(form, "displayName") || null,
        accentColor: fieldText(form, "accentColor") || null,
        ...(file && { logo: await dataUrlOf(file) }),
      };
      succeeded((await run(session, ConsoleBrandingUpdateDocument, { input })).merchantBrandingUpdate);
      setSaid(t("saved"));
      onDone();
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <section aria-labelledby="branding-heading">
      <h3 id="branding-heading">{t("payPageBranding")}</h3>
      {branding.logoUrl && <img class="brand-logo" src={branding.logoUrl} alt={t("currentLogo")} height={48} />}
      {session.readOnly ? (
        <dl class="facts">
          <dt>{t("displayName")}</dt>
          <dd>{branding.displayName ?? "—"}</dd>
          <dt>{t("accentColor")}</dt>
          <dd>{branding.accentColor ?? "—"}</dd>
        </dl>
      ) : (
        <form
          class="stacked"
          onSubmit={(event) => void save(event)}
          key={`${branding.displayName} ${branding.accentColor} ${branding.logoUrl}`}
        >
          <label>
            {t("displayName")}
            <input name="displayName" maxLength={60} defaultValue={branding.displayName ?? ""} />
          </label>
          <label>
            {t("accentColor")}
            <input
              name="accentColor"
              pattern="#[0-9a-fA-F]{6}"
              placeholder="#0b5e5a"
              defaultValue={branding.accentColor ?? ""}
              aria-describedby="accent-help"
            />
          </label>
          <p id="accent-help" class="help">
            {t("accentHelp")}
          </p>
          <label>
            {t("logo")}
            <input name="logo" type="file" accept="image/png,image/jpeg,image/webp" aria-describedby="logo-help" />
          </label>
          <p id="logo-help" class="help">
            {t("logoHelp")}
          </p>
          <div role="status">{said && <p>{said}</p>}</div>
          <ErrorText error={error} />
          <button type="submit">{t("save")}</button>
        </form>
      )}
    </section>
  );
}

function Sessions({
  session,
  sessions,
  onDone,
}: {
  session: Session;
  sessions: ConsoleSettingsQuery["consoleSessions"];
  onDone: () => void;
}) {
  const [error, setError] = useState<unknown>(null);
  const end = async (id: string, current: boolean) => {
    setError(null);
    try {
      succeeded((await run(session, ConsoleSessionEndDocument, { id })).consoleSessionEnd);
      if (current) location.replace("/console");
      else onDone();
    } catch (failure) {
      setError(failure);
    }
  };
  return (
    <section aria-labelledby="sessions-heading">
      <h3 id="sessions-heading">{t("sessions")}</h3>
      <ErrorText error={error} />
      <table class="sessions">
        <thead>
          <tr>
            <th scope="col">{t("label")}</th>
            <th scope="col">{t("created")}</th>
            <th scope="col">{t("lastSeen")}</th>
            <th scope="col">{t("access")}</th>
            <th scope="col">
              <span class="visually-hidden">{t("actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((live) => (
            <tr key={live.id}>
              <td>
                {live.label ?? live.id.slice(0, 8)}
                {live.current && ` (${t("thisSession")})`}
              </td>
              <td>
                <When at={live.createdAt} />
              </td>
              <td>
                <When at={live.lastSeenAt} />
              </td>
              <td>{live.readOnly ? t("readOnly") : t("fullAccess")}</td>
              <td>
                {!session.readOnly && (
                  <button
                    type="button"
                    class="secondary"
                    onClick={() => void end(live.id, live.current)}
                    aria-label={`${t("endSession")} ${live.label ?? live.id.slice(0, 8)}`}
                  >
                    {t("endSession")}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
