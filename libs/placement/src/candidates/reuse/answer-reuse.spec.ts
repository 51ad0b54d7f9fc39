import { NameCatalog } from '../index/name-catalog.js';
import { indexOf } from '../index/plain-index.js';
import { candidateRequest, group } from '../search/request-builder.js';
import { searchCandidates } from '../search/search.js';
import { AnswerReuse } from './answer-reuse.js';

const OPTIONS = { randomize: false, maxCandidates: null };

describe('what answers reuse, kept together', () => {
  it('lets the bytes made of a result go with it once the result is kept no more', async () => {
    const reuse = new AnswerReuse();
    const index = indexOf([{ uuid: 'cn', inventories: { VCPU: { total: 64 } } }]);
    const names = new NameCatalog();
    const ask = (n: number) => {
      const request = candidateRequest([group('', { resources: [['VCPU', n]] })]);
      return reuse.results.answer(index, names, request, OPTIONS, async () => searchCandidates(index, names, request, OPTIONS));
    };
    const first = await ask(1);
    reuse.bytes.keep(first, 'body', 'shape', 0, Buffer.alloc(1000));
    expect(reuse.budget.used).toBe(1000);
    // Sixteen other requests push the first out of the kept results, and its body out of the budget.
    for (let n = 2; n <= 17; n++) await ask(n);
    expect(reuse.bytes.get(first, 'body', 'shape', 0)).toBeUndefined();
    expect(reuse.budget.used).toBe(0);
  });

  it('lets the bytes of a tree\'s part go when another part replaces it', () => {
    const reuse = new AnswerReuse();
    const index = indexOf([{ uuid: 'cn', inventories: { DISK_GB: { total: 100 } } }, { uuid: 'numa', parent: 'cn', inventories: { VCPU: { total: 8 } } }]);
    const names = new NameCatalog();
    const request = candidateRequest([group('', { resources: [['VCPU', 1], ['DISK_GB', 1]] })]);
    const part = searchCandidates(index, names, request, OPTIONS, reuse.trees).trees![0].part!;
    reuse.bytes.keep(part, 'part-requests', 'shape', part.stamp, Buffer.alloc(500));
    index.put('numa', { ...index.get('numa')!.state, usages: { VCPU: 1 } });
    searchCandidates(index, names, request, OPTIONS, reuse.trees);
    expect(reuse.budget.used).toBe(0);
  });

  it('keeps notes out of the budget', () => {
    const reuse = new AnswerReuse();
    const owner = {};
    reuse.bytes.note(owner, 'body', 'shape', 0, 'seen once');
    expect(reuse.bytes.noted(owner, 'body', 'shape', 0)).toBe('seen once');
    expect(reuse.bytes.noted(owner, 'body', 'other shape', 0)).toBeUndefined();
    expect(reuse.budget.used).toBe(0);
  });
});
