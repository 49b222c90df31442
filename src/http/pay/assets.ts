import { loadHashedAssets } from "../hashed-assets.js";

/** The pay page's stylesheet and script (src/http/pay/static/), served under /pay/assets (http/hashed-assets.ts). */
export const loadPayAssets = () =>
  loadHashedAssets("src/http/pay/static", "/pay/assets", {
    stylesheet: { name: "pay", extension: "css", type: "text/css; charset=utf-8" },
    script: { name: "pay", extension: "js", type: "text/javascript; charset=utf-8" },
  });

/** The addresses a page names its stylesheet and script by. */
export type AssetHrefs = ReturnType<typeof loadPayAssets>["hrefs"];
