import { nameEngineSteps } from './engine-steps.js';

describe('nameEngineSteps', () => {
  it("puts the engine's labels under the issue's step names, per group", () => {
    expect(nameEngineSteps([
      { step: 'roots meeting root_required', count: 3 },
      { step: "group '': some provider meets member_of", count: 1 },
      { step: "group '1': providers with 4 VCPU free", count: 2 },
      { step: "group '1': providers examined", count: 5 },
      { step: 'combinations pruned', count: 7 },
      { step: 'candidates', count: 2 },
      { step: 'something new', count: 9 },
    ])).toEqual([
      { group: null, step: 'root_required', count: 3, detail: 'roots meeting root_required' },
      { group: '', step: 'aggregates', count: 1, detail: 'some provider meets member_of' },
      { group: '1', step: 'capacity', count: 2, detail: 'providers with 4 VCPU free' },
      { group: '1', step: 'resources', count: 5, detail: 'providers examined' },
      { group: null, step: 'same_subtree / group policy', count: 7, detail: 'combinations pruned' },
      { group: null, step: 'candidates', count: 2, detail: 'candidates' },
    ]);
  });
});
