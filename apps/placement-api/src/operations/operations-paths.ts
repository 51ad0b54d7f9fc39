/**
 * Probes and scrapes: answered without a token, outside upstream's URL space and outside
 * microversion handling, as load balancers and Prometheus call them.
 */
export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';
export const METRICS_PATH = '/metrics';
/** The operators' console: a browser opening it sends no token; its calls carry the token it asks for. */
export const CONSOLE_PATH = '/ledger/console';
/** The usage dashboard's old address: the console, opened on its usage view. */
export const DASHBOARD_PATH = '/ledger/dashboard';

const UNAUTHENTICATED = new Set([HEALTH_PATH, READY_PATH, METRICS_PATH, CONSOLE_PATH, DASHBOARD_PATH]);

/** `url` as Fastify gives it, query string included. */
export function isOperationsPath(url: string): boolean {
  const mark = url.indexOf('?');
  return UNAUTHENTICATED.has(mark < 0 ? url : url.slice(0, mark));
}
