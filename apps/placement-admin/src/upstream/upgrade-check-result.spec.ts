import { prettyTable } from './pretty-table.js';
import { CheckCode, formatCheckResults, worstCode, wrapDetails } from './upgrade-check-result.js';

describe('oslo.upgradecheck\'s output', () => {
  it('draws the results box with a rule after every check', () => {
    const results = [
      { name: 'Database Schema', result: { code: CheckCode.Success } },
      { name: 'Policy File JSON to YAML Migration', result: { code: CheckCode.Warning, details: 'The policy file /etc/placement/policy.json is JSON; convert it to YAML.' } },
    ];
    expect(formatCheckResults(results)).toBe([
      '+----------------------------------------------------------------------+',
      '| Upgrade Check Results                                                |',
      '+----------------------------------------------------------------------+',
      '| Check: Database Schema                                               |',
      '| Result: Success                                                      |',
      '| Details: None                                                        |',
      '+----------------------------------------------------------------------+',
      '| Check: Policy File JSON to YAML Migration                            |',
      '| Result: Warning                                                      |',
      '| Details: The policy file /etc/placement/policy.json is JSON; convert |',
      '|   it to YAML.                                                        |',
      '+----------------------------------------------------------------------+',
    ].join('\n'));
    expect(worstCode(results)).toBe(CheckCode.Warning);
    expect(worstCode([])).toBe(CheckCode.Success);
  });

  it('wraps details at 60 columns with a two-space indent', () => {
    const wrapped = wrapDetails('word '.repeat(30)).split('\n');
    expect(wrapped.every((line) => line.length <= 60)).toBe(true);
    expect(wrapped[1].startsWith('  word')).toBe(true);
  });

  it('centres cells by default, as prettytable', () => {
    expect(prettyTable(['Migration', 'Total Found', 'Completed'], [['set_root_provider_ids', '0', '0']])).toBe([
      '+-----------------------+-------------+-----------+',
      '|       Migration       | Total Found | Completed |',
      '+-----------------------+-------------+-----------+',
      '| set_root_provider_ids |      0      |     0     |',
      '+-----------------------+-------------+-----------+',
    ].join('\n'));
  });
});
