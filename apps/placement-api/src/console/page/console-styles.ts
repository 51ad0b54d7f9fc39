/** The console's only style sheet, allowed by its hash: no inline style attribute anywhere (scripts set SVG attributes). */
export const CONSOLE_STYLE = `
  body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #222; background: #fff; }
  header { display: flex; flex-wrap: wrap; gap: 8px 24px; align-items: end; padding: 12px 24px; background: #f2f4f7; border-bottom: 1px solid #d5d9e0; }
  h1 { font-size: 20px; margin: 0; }
  h2 { font-size: 16px; margin: 0 0 4px; }
  h3 { font-size: 14px; margin: 12px 0 4px; }
  main { padding: 12px 24px 24px; }
  form { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: end; margin-bottom: 12px; }
  fieldset { display: flex; flex-wrap: wrap; gap: 8px 16px; align-items: end; border: 1px solid #ccd; }
  label { display: flex; flex-direction: column; font-size: 12px; color: #555; }
  input, select, button, textarea { font: inherit; padding: 4px 6px; }
  button { cursor: pointer; }
  :focus-visible { outline: 3px solid #1f6feb; outline-offset: 1px; }
  [role=tablist] { display: flex; gap: 4px; margin: 0 24px; padding-top: 8px; border-bottom: 1px solid #d5d9e0; }
  [role=tab] { border: 1px solid #d5d9e0; border-bottom: none; background: #f8f9fb; border-radius: 4px 4px 0 0; }
  [role=tab][aria-selected=true] { background: #fff; font-weight: 600; }
  .status { margin: 8px 0 12px; color: #444; }
  .status.error { color: #b00020; }
  .provider { border: 1px solid #dde; border-radius: 4px; padding: 8px 12px; margin: 8px 0; }
  .provider.asked { border-color: #1f6feb; }
  .depth-1 { margin-left: 24px; } .depth-2 { margin-left: 48px; } .depth-3 { margin-left: 72px; }
  .depth-4 { margin-left: 96px; } .depth-5 { margin-left: 120px; } .depth-6 { margin-left: 144px; }
  .meta { color: #666; font-size: 12px; margin: 0 0 4px; }
  table { border-collapse: collapse; margin: 4px 0; }
  th, td { text-align: left; padding: 2px 10px 2px 0; vertical-align: middle; }
  td.number, th.number { text-align: right; }
  ul.chips { display: flex; flex-wrap: wrap; gap: 4px; list-style: none; padding: 0; margin: 2px 0; }
  ul.chips li { background: #eef1f6; border-radius: 10px; padding: 0 8px; font-size: 12px; }
  ol.timeline { list-style: none; padding: 0; border-left: 3px solid #6aa5d8; margin-left: 6px; }
  ol.timeline li { padding: 4px 0 8px 12px; }
  ol.timeline .when { font-weight: 600; }
  ol.timeline .changes { margin: 2px 0; }
  ol.funnel { padding-left: 20px; }
  .verdict.out { color: #b00020; }
  .verdict.in { color: #1b7f3b; }
  .chart { margin-bottom: 20px; }
  .chart .summary { margin: 2px 0 6px; color: #555; }
  .legend { font-size: 12px; color: #555; }
`;
