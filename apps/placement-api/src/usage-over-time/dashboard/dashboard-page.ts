import { createHash } from 'node:crypto';
import { DASHBOARD_SCRIPT } from './dashboard-script.js';

const STYLE = `
  body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; background: #fff; }
  h1 { font-size: 20px; margin: 0 0 12px; }
  form { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: end; margin-bottom: 12px; }
  label { display: flex; flex-direction: column; font-size: 12px; color: #555; }
  input, select, button { font: inherit; padding: 4px 6px; }
  #status { margin: 8px 0 16px; color: #444; }
  #status.error { color: #b00020; }
  .chart { margin-bottom: 20px; }
  .chart h2 { font-size: 16px; margin: 0; }
  .chart .summary { margin: 2px 0 6px; color: #555; }
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/** Only this page's own script and style run, and it may only call this service. */
export const DASHBOARD_CSP = [
  "default-src 'none'", `script-src ${sha256(DASHBOARD_SCRIPT)}`, `style-src ${sha256(STYLE)}`, "connect-src 'self'", "img-src 'self' data:",
].join('; ');

/** GET /ledger/dashboard: one chart per resource class of a project's usage over a range. */
export const DASHBOARD_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Placement usage</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Usage over time</h1>
<form id="query">
  <label>Token (X-Auth-Token)<input name="token" type="password" autocomplete="off" required></label>
  <label>Project<input name="project_id" required size="34"></label>
  <label>Start (RFC 3339)<input name="start" required size="22"></label>
  <label>End (empty: now)<input name="end" size="22"></label>
  <label>Bucket<select name="bucket"><option value="hour">hour</option><option value="day">day</option></select></label>
  <label>User<input name="user_id" size="12"></label>
  <label>Consumer type<input name="consumer_type" size="12"></label>
  <span>
    <button type="button" data-range="24">24 h</button>
    <button type="button" data-range="168">7 d</button>
    <button type="button" data-range="720">30 d</button>
  </span>
  <button type="submit" id="show">Show</button>
</form>
<div id="status">Enter a token and a project, then Show.</div>
<div id="charts"></div>
<script>${DASHBOARD_SCRIPT}</script>
</body>
</html>
`;
