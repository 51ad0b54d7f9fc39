#!/usr/bin/env node
import { samplePolicy } from './platform/policy/sample-policy.js';

// `npm run policy:sample`: the sample policy file (docs/policy.sample.yaml is this output).
process.stdout.write(samplePolicy());
