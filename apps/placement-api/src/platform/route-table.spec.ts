import { RouteTable } from './route-table.js';

describe('route table', () => {
  const table = new RouteTable();
  table.add('/resource_providers', ['GET', 'HEAD']);
  table.add('/resource_providers', 'POST');
  table.add('/resource_providers/:uuid', 'GET');

  it('lists the methods of a matching path, without HEAD', () => {
    expect(table.methodsFor('/resource_providers')?.sort()).toEqual(['GET', 'POST']);
    expect(table.methodsFor('/resource_providers/abc')).toEqual(['GET']);
  });

  it('knows nothing of other paths', () => {
    expect(table.methodsFor('/barnabas')).toBeNull();
    expect(table.methodsFor('/resource_providers/abc/def')).toBeNull();
  });
});
