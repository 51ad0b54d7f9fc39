import { Controller, Get, Header } from '@nestjs/common';
import { CONSOLE_PATH, DASHBOARD_PATH } from '../operations/operations-paths.js';
import { CONSOLE_CSP, CONSOLE_HTML } from './page/console-page.js';

/**
 * The operators' console. A browser cannot send X-Auth-Token when it opens a page, so the page
 * itself is public (it holds no data); it asks for a token and sends it with every call to the
 * JSON endpoints, which apply auth and policy as usual. The usage dashboard's old address serves
 * the same page, which opens on its usage view there. route-policies.ts maps both to no rule.
 */
@Controller()
export class ConsoleController {
  @Get(CONSOLE_PATH)
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('content-security-policy', CONSOLE_CSP)
  @Header('cache-control', 'no-cache')
  page(): string {
    return CONSOLE_HTML;
  }

  @Get(DASHBOARD_PATH)
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('content-security-policy', CONSOLE_CSP)
  @Header('cache-control', 'no-cache')
  dashboard(): string {
    return CONSOLE_HTML;
  }
}
