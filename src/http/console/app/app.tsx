/** The signed-in console: its header and sections, and the screen of the address it is at. */
import { run, sessionEnded, type Session } from "./api.js";
import { ConsoleMerchantDocument, type ConsoleMerchantQuery } from "./gql/graphql.js";
import type { Units } from "./money.js";
import { t, type MessageKey } from "./messages.js";
import { followLink, route } from "./router.js";
import { ChargeScreen } from "./screens/charge.js";
import { CatalogueScreen } from "./screens/catalogue.js";
import { EndpointsScreen } from "./screens/developers.js";
import { EndpointScreen } from "./screens/endpoint.js";
import { KeysScreen } from "./screens/keys.js";
import { OverviewScreen } from "./screens/overview.js";
import { RequestScreen } from "./screens/request.js";
import { RequestsScreen } from "./screens/requests.js";
import { SettingsScreen } from "./screens/settings.js";
import { SignedOutScreen } from "./screens/sign-in.js";
import { ErrorText, Loading, Screen, useLoad, type ScreenProps, type UnitsByAsset } from "./ui.js";

const SECTIONS: [path: string, name: MessageKey][] = [
  ["/console", "overview"],
  ["/console/charge", "charge"],
  ["/console/requests", "requests"],
  ["/console/developers", "developers"],
  ["/console/settings", "settings"],
];

/** The screen at `path`. */
function screenAt(path: string, props: ScreenProps) {
  const request = /^\/console\/requests\/([^/]+)$/.exec(path);
  if (request) return <RequestScreen {...props} id={decodeURIComponent(request[1]!)} />;
  const endpoint = /^\/console\/developers\/endpoints\/([^/]+)$/.exec(path);
  if (endpoint) return <EndpointScreen {...props} id={decodeURIComponent(endpoint[1]!)} />;
  switch (path) {
    case "/console":
      return <OverviewScreen {...props} />;
    case "/console/charge":
      return <ChargeScreen {...props} />;
    case "/console/requests":
      return <RequestsScreen {...props} />;
    case "/console/developers":
      return <EndpointsScreen {...props} />;
    case "/console/developers/keys":
      return <KeysScreen {...props} />;
    case "/console/developers/events":
      return <CatalogueScreen {...props} />;
    case "/console/settings":
      return <SettingsScreen {...props} />;
    default:
      return (
        <Screen title={t("notFoundScreen")}>
          <p>{t("notFoundScreen")}</p>
        </Screen>
      );
  }
}

/** Each asset in the units of the first configuration item that takes it, as the pay page shows it. */
function unitsByAsset(items: ConsoleMerchantQuery["merchantConfiguration"]["items"]): UnitsByAsset {
  const units = new Map<string, Units>();
  for (const item of items)
    if (!units.has(item.currency)) units.set(item.currency, { label: item.units.label, fractionalDigits: item.fractionalDigits });
  return units;
}

async function signOut(session: Session) {
  await fetch("/console/sign-out", { method: "POST", headers: { "x-console-csrf": session.csrfToken } });
  location.replace("/console");
}

export function App({ session }: { session: Session }) {
  const { pathname } = route.value;
  const merchant = useLoad(() => run(session, ConsoleMerchantDocument, { merchantId: session.merchantId }), []);
  // A call refused because the session ended (elsewhere, or by its expiry) leads to the sign-in page.
  if (sessionEnded.value) return <SignedOutScreen />;
  const units = unitsByAsset(merchant.data?.merchantConfiguration.items ?? []);
  return (
    <>
      <header>
        <h1>{t("console")}</h1>
        <p id="who">
          <strong>{session.merchantName}</strong> · {session.label ?? "console"}{" "}
          {session.readOnly && <span class="badge">{t("readOnly")}</span>}
        </p>
        <button type="button" onClick={() => void signOut(session)}>
          {t("signOut")}
        </button>
        <nav aria-label={t("navigation")} onClick={followLink}>
          <ul>
            {SECTIONS.map(([path, name]) => (
              <li key={path}>
                <a
                  href={path}
                  aria-current={
                    pathname === path || (pathname.startsWith(`${path}/`) && path !== "/console") ? "page" : undefined
                  }
                >
                  {t(name)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </header>
      <main id="main" onClick={followLink}>
        <ErrorText error={merchant.error} />
        {merchant.data ? screenAt(pathname, { session, units }) : !merchant.error && <Loading />}
      </main>
    </>
  );
}
