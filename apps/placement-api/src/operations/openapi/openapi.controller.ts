import { Controller, Get } from '@nestjs/common';
import { buildOpenApiDocument } from './openapi-document.js';

/** The API's description; any authenticated caller may read it (route-policies.ts maps it to no rule). */
@Controller()
export class OpenApiController {
  private readonly document = buildOpenApiDocument();

  @Get('/openapi.json')
  openapi() {
    return this.document;
  }
}
