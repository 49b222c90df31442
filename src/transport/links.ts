/**
 * Addresses of the service's own pages, as users reach them (PUBLIC_URL): what the transports put
 * in their answers. A request's pay page is `<PUBLIC_URL>/pay/<requestCode>`; a console sign-in link
 * `<PUBLIC_URL>/console/sign-in#<token>`.
 */
export interface Links {
  payUrl: (requestCode: string) => string;
  /** A console sign-in link: its token in the fragment, which no log or Referer carries. */
  consoleSignInUrl: (token: string) => string;
  /** A merchant's logo, named by its hash: what an address names never changes. */
  logoUrl: (merchantId: string, hash: string) => string;
}

export function pageLinks(publicUrl: string): Links {
  const base = publicUrl.replace(/\/+$/, "");
  return {
    payUrl: (requestCode) => `${base}/pay/${encodeURIComponent(requestCode)}`,
    consoleSignInUrl: (token) => `${base}/console/sign-in#${token}`,
    logoUrl: (merchantId, hash) => `${base}/pay/logos/${merchantId}/${hash}`,
  };
}
