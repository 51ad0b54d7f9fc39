import { SetMetadata } from '@nestjs/common';

export const PUBLIC_ROUTE = 'placement:public-route';

/**
 * A controller (or handler) no policy rule applies to: the operations endpoints, which are
 * not upstream's and have no rule in policy-defaults. Guards read it with
 * `Reflect.getMetadata(PUBLIC_ROUTE, context.getClass())` (or Nest's Reflector).
 * Authentication is separate: the pipeline decides which paths need a token.
 */
export const PublicRoute = () => SetMetadata(PUBLIC_ROUTE, true);
