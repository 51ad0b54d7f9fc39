import { PlacementError } from '../placement-error.js';
import { parseResources, pythonInt } from './resources.js';

function rejection(run: () => unknown): PlacementError {
  try { run(); } catch (e) { return e as PlacementError; }
  throw new Error('expected a 400');
}

const FORM = 'Badly formed resources parameter. Expected resources query string parameter in form: ?resources=VCPU:2,MEMORY_MB:1024.';

describe('resources', () => {
  it('reads amounts by class, the last amount of a repeated class winning', () => {
    expect([...parseResources('VCPU:2,MEMORY_MB:1024,VCPU:4')]).toEqual([['VCPU', 4], ['MEMORY_MB', 1024]]);
  });

  it('reads amounts as Python int() does', () => {
    expect(pythonInt(' +12 ')).toBe(12);
    expect(pythonInt('1_000')).toBe(1000);
    expect(pythonInt('1__0')).toBeNull();
    expect(pythonInt('1.5')).toBeNull();
    expect(pythonInt('')).toBeNull();
  });

  it('refuses malformed values with upstream messages', () => {
    expect(rejection(() => parseResources(' ')).detail).toBe(`${FORM} Got: empty string.`);
    expect(rejection(() => parseResources('VCPU')).detail).toBe(`${FORM} Got: VCPU.`);
    expect(rejection(() => parseResources('DISK_GB:500,')).detail).toBe(`${FORM} Got: .`);
    expect(rejection(() => parseResources('VCPU:1:2')).detail).toBe(`${FORM} Got: VCPU:1:2.`);
    expect(rejection(() => parseResources('VCPU:fred')).detail).toBe('Requested resource VCPU expected positive integer amount. Got: fred.');
    expect(rejection(() => parseResources('VCPU:-2')).detail).toBe('Requested resource VCPU requires amount >= 1. Got: -2.');
    expect(rejection(() => parseResources('VCPU:0')).status).toBe(400);
  });
});
