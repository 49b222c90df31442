import { escapeHtml as e } from "../pay/format.js";

/**
 * The console's one page: every screen is drawn by its script (app/, bundled by
 * scripts/start/console-bundle.js) at its own address under /console.
 */
export function consolePage(assets: { stylesheet: string; script: string }): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Merchant console</title>
<link rel="stylesheet" href="${e(assets.stylesheet)}">
<script type="module" src="${e(assets.script)}"></script>
</head>
<body>
<div id="console"><main id="main"><p role="status">Loading…</p></main></div>
<noscript><p>The console needs JavaScript.</p></noscript>
</body>
</html>
`;
}
