import type { ExecutionContext } from '@nestjs/common';
import { lastValueFrom, of } from 'rxjs';
import { requestState } from '../request-state.js';
import { Access } from './access.js';
import { AccessAskedInterceptor } from './access-asked.interceptor.js';

const contextWith = (access?: Access) => {
  const request = { method: 'GET', routeOptions: { url: '/ledger/events' } };
  if (access) requestState(request as never).access = access;
  return { switchToHttp: () => ({ getRequest: () => request }) } as unknown as ExecutionContext;
};
const answer = { events: ['of every project'] };

describe('the interceptor of routes judged against their data', () => {
  const interceptor = new AccessAskedInterceptor();

  it('refuses the answer of a handler that never asked whether the caller may see it', async () => {
    const access = new Access('placement:ledger:events', () => false, 'A');
    await expect(lastValueFrom(interceptor.intercept(contextWith(access), { handle: () => of(answer) }))).rejects.toMatchObject({ status: 403 });
  });

  it('lets through the answer of a handler that asked', async () => {
    const access = new Access('placement:ledger:events', () => false, 'A');
    const handled = { handle: () => { access.filter([], () => null); return of(answer); } };
    expect(await lastValueFrom(interceptor.intercept(contextWith(access), handled))).toBe(answer);
  });

  it('leaves other routes alone', async () => {
    expect(await lastValueFrom(interceptor.intercept(contextWith(), { handle: () => of(answer) }))).toBe(answer);
  });
});
