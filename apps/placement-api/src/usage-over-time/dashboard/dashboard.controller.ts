import { Controller, Get, Header } from '@nestjs/common';
import { DASHBOARD_PATH } from '../../operations/operations-paths.js';
import { DASHBOARD_CSP, DASHBOARD_HTML } from './dashboard-page.js';

/**
 * The usage dashboard's page. A browser cannot send X-Auth-Token when it opens a page, so the
 * page itself is public (it holds no data); it asks for a token and sends it with every call
 * to the JSON endpoints, which apply auth and policy as usual. route-policies.ts maps it to no rule.
 */
@Controller()
export class DashboardController {
  @Get(DASHBOARD_PATH)
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('content-security-policy', DASHBOARD_CSP)
  @Header('cache-control', 'no-cache')
  page(): string {
    return DASHBOARD_HTML;
  }
}
