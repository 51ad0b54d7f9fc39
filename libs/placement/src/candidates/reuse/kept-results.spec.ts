import {
  FLAT_REQUESTS, FLAT_WRITES, flatCatalog, flatCloud, INDEX_WRITES, IndexWrite, nestedTree, putChanged, REQUESTS, seen, someProvider,
} from '#test/support/candidate-fixtures.js';
import { seededRandom } from '#test/support/seeded-random.js';
import { NameCatalog } from '../index/name-catalog.js';
import { indexOf } from '../index/plain-index.js';
import { SHARES_VIA_AGGREGATE } from '../index/provider-index.js';
import { CandidateRequest, SearchOptions } from '../request.js';
import { KeptResults } from './kept-results.js';
import { candidateRequest, group } from '../search/request-builder.js';
import { CandidateResult, searchCandidates } from '../search/search.js';
import { TreeAnswers } from './tree-answers.js';

const OPTIONS: SearchOptions = { randomize: false, maxCandidates: null };

/** A trait that comes and goes from the catalog, and a request that needs it. */
const COMING_AND_GOING = 'CUSTOM_BAR';
const REQUESTS_HERE: Record<string, CandidateRequest> = {
  ...REQUESTS,
  bar: candidateRequest([group('', { resources: [['VCPU', 1]], requiredTraits: [[COMING_AND_GOING]] })]),
};

/** An outcome as comparable data: the answer, or the refusal's message. */
async function outcome(search: () => CandidateResult | Promise<CandidateResult>) {
  try {
    return seen(await search());
  } catch (error) {
    return { refused: (error as Error).message };
  }
}

/** The search as the API runs it, for KeptResults to call. */
const asPromised = (search: () => CandidateResult) => async () => search();

describe('whole answers kept while nothing is written (KeptResults)', () => {
  it('gives exactly what a search gives, after every kind of write, a name coming or going, and no write at all', async () => {
    const random = seededRandom(20261128);
    const index = indexOf(Array.from({ length: 10 }, (_v, i) => nestedTree(i)).flat());
    const names = new NameCatalog();
    names.addTrait('CUSTOM_FOO');
    const results = new KeptResults();
    const answers = new TreeAnswers();
    const writes: IndexWrite[] = [
      ...INDEX_WRITES,
      // A provider starts or stops lending to its aggregate's trees.
      (_index, r) => {
        const { state } = someProvider(index, r);
        putChanged(index, state, { traits: state.traits.includes(SHARES_VIA_AGGREGATE) ? [] : [SHARES_VIA_AGGREGATE] });
      },
    ];
    let same = 0;
    const last = new Map<string, CandidateResult>();
    for (let step = 0; step < 300; step++) {
      const roll = random.int(4);
      if (roll === 0) random.pick(writes)(index, random);
      else if (roll === 1) {
        if (names.hasTrait(COMING_AND_GOING)) names.removeTrait(COMING_AND_GOING);
        else names.addTrait(COMING_AND_GOING);
      }
      for (const [name, request] of Object.entries(REQUESTS_HERE)) {
        for (const limit of [null, 3]) {
          const asked = { ...request, limit };
          const slot = `${name} ${limit}`;
          const kept = await outcome(async () => {
            const result = await results.answer(index, names, asked, OPTIONS, asPromised(() => searchCandidates(index, names, asked, OPTIONS, answers)));
            if (result === last.get(slot)) same++;
            last.set(slot, result);
            return result;
          });
          expect({ slot, ...kept }).toEqual({ slot, ...await outcome(() => searchCandidates(index, names, asked, OPTIONS)) });
        }
      }
    }
    // Half the rounds wrote nothing: their answers were the ones kept.
    expect(same).toBeGreaterThan(1000);
  });

  it('patches the streamed answers of a flat cloud after writes to exactly what a search gives, and searches where it cannot tell', async () => {
    const random = seededRandom(20261129);
    const index = indexOf(flatCloud(120));
    const names = flatCatalog();
    const results = new KeptResults();
    let patched = 0;
    let searched = 0;
    for (let step = 0; step < 400; step++) {
      for (let writes = random.int(4); writes > 0; writes--) random.pick(FLAT_WRITES)(index, random);
      for (const [name, request] of Object.entries(FLAT_REQUESTS)) {
        for (const limit of [null, 7]) {
          const asked = { ...request, limit };
          const search = asPromised(() => searchCandidates(index, names, asked, OPTIONS));
          const result = await results.answer(index, names, asked, OPTIONS, async () => {
            searched++;
            return search();
          });
          if (result.walked?.base) patched++;
          expect({ name, limit, ...seen(result) }).toEqual({ name, limit, ...seen(await search()) });
        }
      }
    }
    // Most rounds only claimed: their answers were patched; the rest were searched for.
    expect(patched).toBeGreaterThan(1500);
    expect(searched).toBeGreaterThan(300);
  });

  it('answers with the same object until the index or the catalog changes', async () => {
    const index = indexOf([...nestedTree(0), ...nestedTree(1)]);
    const names = new NameCatalog();
    names.addTrait('CUSTOM_FOO');
    const results = new KeptResults();
    const request = REQUESTS.perfload;
    const ask = () => results.answer(index, names, request, OPTIONS, asPromised(() => searchCandidates(index, names, request, OPTIONS)));
    const first = await ask();
    expect(await ask()).toBe(first);
    expect(await results.answer(index, names, { ...request, limit: 1 }, OPTIONS, asPromised(() => searchCandidates(index, names, request, OPTIONS)))).not.toBe(first);
    expect(await ask()).toBe(first);
    names.addTrait('CUSTOM_NEW');
    const second = await ask();
    expect(second).not.toBe(first);
    putChanged(index, index.get('numa1_1')!.state, { usages: { VCPU: 1 } });
    expect(await ask()).not.toBe(second);
  });

  it('is not used for shuffled answers, and keeps the last sixteen requests asked', async () => {
    const index = indexOf(nestedTree(0));
    const names = new NameCatalog();
    const results = new KeptResults();
    const request = (n: number) => candidateRequest([group('', { resources: [['VCPU', n]] })]);
    const ask = (n: number, options = OPTIONS) => results.answer(index, names, request(n), options, asPromised(() => searchCandidates(index, names, request(n), options)));
    const shuffled = { ...OPTIONS, randomize: true };
    expect(await ask(1, shuffled)).not.toBe(await ask(1, shuffled));
    const first = await ask(1);
    const second = await ask(2);
    for (let n = 3; n <= 16; n++) await ask(n);
    // Asked again, the first is the most recent: the seventeenth request pushes out the second.
    expect(await ask(1)).toBe(first);
    await ask(17);
    expect(await ask(1)).toBe(first);
    expect(await ask(2)).not.toBe(second);
  });
});
