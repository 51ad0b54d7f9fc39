import { ErrorCode } from '../shared/error-codes.js';
import { ActiveProvider } from '../provider/provider.state.js';
import {
  ProviderNameCommand, ProviderNameEvent, ProviderNameTaken, providerNameDecider, providerNameStream,
} from './provider-name.decider.js';
import { providerNameChanges } from './provider-name.changes.js';

const given = (...events: ProviderNameEvent[]) => ({
  when: (command: ProviderNameCommand) => {
    const state = events.reduce(providerNameDecider.evolve, providerNameDecider.initialState());
    const run = () => providerNameDecider.decide(command, state);
    return {
      then: (expected: ProviderNameEvent[]) => expect(run()).toEqual(expected),
      thenThrows: (expected: object) => expect(run).toThrow(expect.objectContaining(expected) as unknown as Error),
    };
  },
});

// The first reservations were stored without `v`: they must stay readable.
const reserved = (uuid: string, name = 'cn1'): ProviderNameEvent => ({ type: 'ProviderNameReserved', data: { name, uuid } });
const released = (uuid: string, name = 'cn1'): ProviderNameEvent => ({ type: 'ProviderNameReleased', data: { name, uuid } });
const reserve = (uuid: string): ProviderNameCommand => ({ type: 'ReserveProviderName', name: 'cn1', uuid });
const release = (uuid: string): ProviderNameCommand => ({ type: 'ReleaseProviderName', name: 'cn1', uuid });
const v1 = (event: ProviderNameEvent) => ({ ...event, data: { ...event.data, v: 1 } }) as ProviderNameEvent;

describe('provider name decider', () => {
  it('reserves a free name', () => given().when(reserve('a')).then([v1(reserved('a'))]));
  it('reserves a name again once released', () => given(reserved('a'), released('a')).when(reserve('b')).then([v1(reserved('b'))]));
  it('decides nothing when the provider already holds the name', () => given(reserved('a')).when(reserve('a')).then([]));
  it("refuses a name another provider holds, with upstream's creation answer", () =>
    given(reserved('a')).when(reserve('b')).thenThrows({
      kind: 'conflict', code: ErrorCode.DUPLICATE_NAME, holder: 'a', providerName: 'cn1',
      detail: 'Conflicting resource provider name: cn1 already exists.',
    }));
  it('is a ProviderNameTaken, for the handlers to word', () => {
    expect(() => given(reserved('a')).when(reserve('b')).then([])).toThrow(ProviderNameTaken);
  });

  it('releases the holder\'s name', () => given(reserved('a')).when(release('a')).then([v1(released('a'))]));
  it('releases nothing it does not hold: a log written before reservations, or another holder', () => {
    given().when(release('a')).then([]);
    given(reserved('b')).when(release('a')).then([]);
  });
  it('keeps the name held when someone other than the holder released it', () =>
    given(reserved('a'), released('b')).when(reserve('b')).thenThrows({ holder: 'a' }));
  it('ignores the import marker', () =>
    given({ type: 'StreamImported', data: { source: 's', source_revision: 'r', imported_at: 't', v: 1 } }, reserved('a'))
      .when(reserve('b')).thenThrows({ holder: 'a' }));
});

describe('provider name streams', () => {
  it('keep the stored spelling, and tell names apart by case', () => {
    // sha256 of the UTF-8 name, in hex: what KurrentDB logs already hold.
    expect(providerNameStream('cn1')).toBe('reserved-provider-name-777c7715fe23b83c881ab68874e31c0d801f080b64b5054b64945024101833c4');
    expect(providerNameStream('a')).not.toBe(providerNameStream('A'));
  });
});

describe('the names a provider decision touches', () => {
  const active = (name: string): ActiveProvider => ({
    status: 'active', uuid: 'a', name, parentUuid: null, generation: 0, inventories: {}, traits: [], aggregates: [], usages: {}, allocations: {},
  });
  it('reserves on creation, releases on deletion', () => {
    expect(providerNameChanges({ status: 'absent' }, active('x'))).toEqual([{ type: 'ReserveProviderName', name: 'x', uuid: 'a' }]);
    expect(providerNameChanges(active('x'), { status: 'deleted', uuid: 'a' })).toEqual([{ type: 'ReleaseProviderName', name: 'x', uuid: 'a' }]);
  });
  it('releases then reserves on a rename, even one of case only', () => {
    expect(providerNameChanges(active('a'), active('A'))).toEqual([
      { type: 'ReleaseProviderName', name: 'a', uuid: 'a' }, { type: 'ReserveProviderName', name: 'A', uuid: 'a' },
    ]);
  });
  it('touches no name when the name stays', () => {
    expect(providerNameChanges(active('x'), { ...active('x'), generation: 3 })).toEqual([]);
    expect(providerNameChanges({ status: 'absent' }, { status: 'absent' })).toEqual([]);
  });
});
