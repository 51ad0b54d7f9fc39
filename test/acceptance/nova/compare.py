"""Set reports of the harness side by side (harness.py --report) and sort out the failures.

    compare.py --ours R.json --in-process R.json --upstream-http R.json [--limits harness-limits.txt]

Prints passed / failed / skipped for each report, over the tests they share, then every test
that upstream passes in-process and we do not, as one of:
  ours only        upstream over HTTP passes it: a difference of ours to find and fix;
  harness limit    upstream over HTTP fails it too, and harness-limits.txt gives the reason;
  unexplained      upstream over HTTP fails it too, with no reason listed yet.
Exits non-zero when a test is "ours only" or "unexplained".
"""

import argparse
import json
import sys


def load(path):
    with open(path) as f:
        return {t['id']: t['status'] for t in json.load(f)['tests']}


def limits(path):
    reasons = {}
    if path:
        with open(path) as f:
            for line in f:
                test, _, reason = line.partition('#')
                if test.strip():
                    reasons[test.strip()] = reason.strip()
    return reasons


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--ours', required=True)
    parser.add_argument('--in-process', required=True)
    parser.add_argument('--upstream-http')
    parser.add_argument('--limits')
    args = parser.parse_args()
    runs = {'ours': load(args.ours), 'upstream in-process': load(args.in_process)}
    if args.upstream_http:
        runs['upstream over HTTP'] = load(args.upstream_http)
    shared = set.intersection(*(set(r) for r in runs.values()))
    print('%d tests in every report' % len(shared))
    print('| run | passed | failed | skipped |\n| --- | --- | --- | --- |')
    for name, run in runs.items():
        counts = [sum(1 for t in shared if run[t] == s) for s in ('passed', 'failed', 'skipped')]
        print('| %s | %d | %d | %d |' % (name, *counts))
    reasons = limits(args.limits)
    ours, upstream, http = runs['ours'], runs['upstream in-process'], runs.get('upstream over HTTP', {})
    bad = 0
    for test in sorted(t for t in shared if upstream[t] == 'passed' and ours[t] != 'passed'):
        if http.get(test) == 'passed' or test not in http:
            kind = 'ours only' if test in http else 'ours (no HTTP baseline)'
            bad += 1
        elif test in reasons:
            kind = 'harness limit: ' + reasons[test]
        else:
            kind = 'unexplained'
            bad += 1
        print('%-24s %s' % (kind.split(':')[0], test) + ('' if ':' not in kind else '\n    ' + kind))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
