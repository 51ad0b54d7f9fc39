import { Controller, Get } from '@nestjs/common';
import { PublicRoute } from '../public-route.js';
import { buildOpenApiDocument } from './openapi-document.js';

/** The API's description; any authenticated caller may read it (no policy rule applies). */
@PublicRoute()
@Controller()
export class OpenApiController {
  private readonly document = buildOpenApiDocument();

  @Get('/openapi.json')
  openapi() {
    return this.document;
  }
}
