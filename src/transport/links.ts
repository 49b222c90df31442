/**
 * Addresses of the service's own pages, as users reach them (PUBLIC_URL): what the transports put
 * in their answers. A request's pay page is `<PUBLIC_URL>/pay/<requestCode>`.
 */
export interface Links {
  payUrl: (requestCode: string) => string;
}

export function pageLinks(publicUrl: string): Links {
  const base = publicUrl.replace(/\/+$/, "");
  return { payUrl: (requestCode) => `${base}/pay/${encodeURIComponent(requestCode)}` };
}
