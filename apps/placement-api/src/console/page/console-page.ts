import { createHash } from 'node:crypto';
import { CONSOLE_SCRIPT } from './console-script.js';
import { CONSOLE_STYLE } from './console-styles.js';
import { VIEWS_HTML } from './console-views.js';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** Only this page's own script and style run, and it may only call this service. */
export const CONSOLE_CSP = [
  "default-src 'none'", `script-src ${sha256(CONSOLE_SCRIPT)}`, `style-src ${sha256(CONSOLE_STYLE)}`, "connect-src 'self'", "img-src 'self' data:",
  "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
].join('; ');

const TABS: readonly (readonly [view: string, title: string])[] = [
  ['providers', 'Providers'], ['consumer', 'Consumer'], ['explain', 'Why no host?'], ['capacity', 'Capacity'], ['usage', 'Usage over time'],
];

/** GET /ledger/console (and /ledger/dashboard): the page holds no data; it asks for a token, then calls the JSON endpoints. */
export const CONSOLE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Placement console</title>
<style>${CONSOLE_STYLE}</style>
</head>
<body>
<header>
<h1>Placement console</h1>
<form id="auth" aria-label="Token">
  <label>Token (sent as X-Auth-Token)<input id="token" name="token" type="password" autocomplete="off" size="36"></label>
  <button type="submit">Use token</button>
  <span id="auth-status" class="status" role="status"></span>
</form>
</header>
<nav role="tablist" aria-label="Views">
${TABS.map(([view, title]) => `  <button type="button" role="tab" id="tab-${view}" data-view="${view}" aria-controls="view-${view}" aria-selected="false">${title}</button>`).join('\n')}
</nav>
<main>
${VIEWS_HTML}
</main>
<script>${CONSOLE_SCRIPT}</script>
</body>
</html>
`;
