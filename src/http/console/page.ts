import { escapeHtml as e } from "../pay/format.js";

/**
 * The console's one page: every screen is drawn by its script (static/console.js) at its own
 * address under /console. The page carries the hashes of the persisted documents the script sends,
 * as data, since the Content-Security-Policy allows no inline script.
 */
export function consolePage(assets: { stylesheet: string; script: string }, documentHashes: Record<string, string>): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Merchant console</title>
<link rel="stylesheet" href="${e(assets.stylesheet)}">
<script type="module" src="${e(assets.script)}"></script>
</head>
<body data-documents="${e(JSON.stringify(documentHashes))}">
<header><h1>Merchant console</h1><p id="who" hidden></p><button type="button" id="sign-out" hidden>Sign out</button></header>
<main id="main" tabindex="-1"><p role="status" id="status">Loading…</p></main>
<noscript><p>The console needs JavaScript.</p></noscript>
</body>
</html>
`;
}
