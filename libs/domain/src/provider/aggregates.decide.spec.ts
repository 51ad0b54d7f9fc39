import { DomainError } from '../shared/domain-error.js';
import { ErrorCode } from '../shared/error-codes.js';
import { SetProviderAggregates } from './aggregates.decide.js';
import { providerDecider } from './provider.decider.js';
import { ProviderEvent } from './provider.events.js';

const UUID = '7c9b2c5e-1a52-4f5e-9a3e-4f4d8e1e2f10';
const AGG_1 = 'f918801a-5e54-4bee-9095-09a9d0c786b8';
const AGG_2 = 'a893eb5c-e2a0-4251-ab26-f71d3b0cfc0b';

const created: ProviderEvent = {
  type: 'ResourceProviderCreated', data: { uuid: UUID, name: 'rp', parent_provider_uuid: null, generation: 0, v: 1 },
};

function given(...events: ProviderEvent[]) {
  const state = events.reduce(providerDecider.evolve, providerDecider.initialState());
  return {
    when: (command: SetProviderAggregates) => ({
      then: (expected: ProviderEvent[]) => expect(providerDecider.decide(command, state)).toEqual(expected),
      thenThrows: (kind: DomainError['kind'], code: string, detail: string) => {
        try {
          providerDecider.decide(command, state);
        } catch (error) {
          expect(error).toBeInstanceOf(DomainError);
          expect(error).toMatchObject({ kind, code, detail });
          return;
        }
        throw new Error('expected the decision to fail');
      },
    }),
  };
}

const set = (fields: Partial<SetProviderAggregates>): SetProviderAggregates => ({
  type: 'SetProviderAggregates', uuid: UUID, generation: undefined, aggregates: [], incrementGeneration: false, ...fields,
});

describe('setting a provider\'s aggregates', () => {
  it('before 1.19: records the new set without moving the generation', () => {
    given(created).when(set({ aggregates: [AGG_1, AGG_2] }))
      .then([{ type: 'AggregatesSet', data: { aggregates: [AGG_1, AGG_2], generation: 0, v: 1 } }]);
  });

  it('from 1.19: checks the generation the client sent and increments it', () => {
    const first: ProviderEvent = { type: 'AggregatesSet', data: { aggregates: [AGG_1], generation: 1, v: 1 } };
    given(created, first).when(set({ aggregates: [], generation: 1, incrementGeneration: true }))
      .then([{ type: 'AggregatesSet', data: { aggregates: [], generation: 2, v: 1 } }]);
  });

  it('from 1.19: refuses a stale generation as a concurrent update', () => {
    const first: ProviderEvent = { type: 'AggregatesSet', data: { aggregates: [AGG_1], generation: 1, v: 1 } };
    given(created, first).when(set({ aggregates: [AGG_2], generation: 0, incrementGeneration: true }))
      .thenThrows('conflict', ErrorCode.CONCURRENT_UPDATE,
        "Resource provider's generation already changed. Please update the generation and try again.");
  });

  it('keeps the order the client gave, once per aggregate', () => {
    given(created).when(set({ aggregates: [AGG_2, AGG_1, AGG_2] }))
      .then([{ type: 'AggregatesSet', data: { aggregates: [AGG_2, AGG_1], generation: 0, v: 1 } }]);
  });

  it('refuses an unknown provider', () => {
    given().when(set({ aggregates: [AGG_1] }))
      .thenThrows('not_found', ErrorCode.UNDEFINED, `No resource provider with uuid ${UUID} found`);
  });

  it('refuses a deleted provider', () => {
    const deleted: ProviderEvent = { type: 'ResourceProviderDeleted', data: { generation: 0, v: 1 } };
    given(created, deleted).when(set({ aggregates: [AGG_1], generation: 0, incrementGeneration: true }))
      .thenThrows('not_found', ErrorCode.UNDEFINED, `No resource provider with uuid ${UUID} found`);
  });
});
