const panel = (view: string, body: string) =>
  `<section id="view-${view}" role="tabpanel" aria-labelledby="tab-${view}" hidden>\n${body}\n</section>`;
const status = (id: string) => `<p id="${id}" class="status" role="status" aria-live="polite"></p>`;

/** Each view's form and the places its script fills; every control is a native one, so Tab and Enter reach it. */
export const VIEWS_HTML = [
  panel('providers', `<form id="provider-form" aria-label="Find a provider">
  <label>Provider name or uuid<input name="provider" required size="40"></label>
  <button type="submit">Find</button>
</form>
${status('provider-status')}
<div id="provider-tree"></div>
<div id="provider-undo"></div>
<ol id="provider-timeline" class="timeline" aria-label="Provider history"></ol>`),
  panel('consumer', `<form id="consumer-form" aria-label="Open a consumer">
  <label>Consumer uuid<input name="consumer" required size="40"></label>
  <label>As of (RFC 3339 time or position; empty: now only)<input name="as_of" size="26"></label>
  <button type="submit">Open</button>
</form>
${status('consumer-status')}
<div id="consumer-now"></div>
<div id="consumer-as-of"></div>
<div id="consumer-undo"></div>
<h3>History</h3>
<ol id="consumer-timeline" class="timeline" aria-label="Consumer history"></ol>`),
  panel('explain', `<form id="explain-form" aria-label="Explain allocation candidates">
  <fieldset><legend>Build from a flavor</legend>
    <label>vCPUs<input name="vcpus" type="number" min="0" size="5"></label>
    <label>Memory MB<input name="memory_mb" type="number" min="0" size="8"></label>
    <label>Disk GB<input name="disk_gb" type="number" min="0" size="6"></label>
    <label>Required traits (comma separated)<input name="required" size="30"></label>
    <label>member_of<input name="member_of" size="30"></label>
    <button type="button" id="explain-build">Build query</button>
  </fieldset>
  <label>GET /allocation_candidates query<textarea name="query" rows="2" cols="80" required></textarea></label>
  <label>Why not this provider? (name or uuid)<input name="provider" size="36"></label>
  <label>As of (optional)<input name="as_of" size="26"></label>
  <button type="submit">Explain</button>
</form>
${status('explain-status')}
<div id="explain-result"></div>`),
  panel('capacity', `<form id="capacity-form" aria-label="Capacity">
  <label>Projects per class<input name="top" type="number" min="1" max="100" value="5" size="4"></label>
  <button type="submit">Show capacity</button>
</form>
${status('capacity-status')}
<div id="capacity-result"></div>`),
  panel('usage', `<form id="query" aria-label="Usage over time">
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
<div id="status" class="status" role="status" aria-live="polite">Enter a token and a project, then Show.</div>
<div id="charts"></div>`),
].join('\n');
