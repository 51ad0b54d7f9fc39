import { readFileSync } from 'node:fs';
import { Check, TRUE } from './check.js';
import { DEFAULT_RULES } from './defaults.js';
import { parseFlatYaml, YamlSubsetError } from './flat-yaml.js';
import { parseListRule, parseRule, PolicyParseError } from './parse-rule.js';
import { buildRuleSet, checkRuleSet } from './rule-set.js';

/** Why an operator's policy file cannot be used; the service refuses to start with it. */
export class PolicyFileError extends Error {}

const isListRule = (value: unknown): value is (string | string[])[] => Array.isArray(value)
  && value.every((inner) => typeof inner === 'string' || (Array.isArray(inner) && inner.every((s) => typeof s === 'string')));

function parseValue(name: string, value: unknown): Check {
  try {
    // A null or empty rule allows everyone, as oslo's parse_rule treats it.
    if (value === null || value === '') return TRUE;
    if (typeof value === 'string') return parseRule(value);
    if (isListRule(value)) return parseListRule(value);
  } catch (error) {
    if (error instanceof PolicyParseError) throw new PolicyFileError(`rule "${name}": ${error.message}`);
    throw error;
  }
  throw new PolicyFileError(`rule "${name}": ${JSON.stringify(value)} is not a check string`);
}

/**
 * The rules of a policy document, JSON tried first and YAML after it, as oslo's
 * parse_file_contents does; every check string is parsed now so a typo stops the start.
 */
export function parsePolicyDocument(text: string): Map<string, Check> {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    try {
      document = parseFlatYaml(text);
    } catch (error) {
      if (error instanceof YamlSubsetError) throw new PolicyFileError(`not valid JSON, and not a YAML policy mapping: ${error.message}`);
      throw error;
    }
  }
  if (document === null) return new Map();
  if (typeof document !== 'object' || Array.isArray(document)) throw new PolicyFileError('must be a mapping of rule name to check string');
  const rules = new Map(Object.entries(document).map(([name, value]) => [name, parseValue(name, value)] as const));
  try {
    checkRuleSet(buildRuleSet(DEFAULT_RULES, { enforceNewDefaults: false, enforceScope: true, open: false, overrides: rules }));
  } catch (error) {
    if (error instanceof PolicyParseError) throw new PolicyFileError(error.message);
    throw error;
  }
  return rules;
}

export function readPolicyFile(path: string): Map<string, Check> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new PolicyFileError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  try {
    return parsePolicyDocument(text);
  } catch (error) {
    if (error instanceof PolicyFileError) throw new PolicyFileError(`${path}: ${error.message}`);
    throw error;
  }
}
