import { splitPath } from 'json-logic-engine';
import type { InputIssue } from '../../errors.js';

/**
 * What a Checkout Function's program may be (docs/extensions.md, Checkout Functions): JSON Logic
 * made only of the operators below, at most MAX_PROGRAM_NODES values nested at most
 * MAX_PROGRAM_DEPTH deep, storable as it is. The manifest validator reports every problem of a
 * submitted program; the engine checks each program again before it runs it.
 */

/**
 * The operators a program may use, each registered on the engine (engine.ts). Nothing here
 * reaches the environment, a prototype or the platform: no `val`/`get` (their paths walk
 * inherited properties), no `try`/`throw` (a `try` would catch the engine's own stop), no
 * `pipe`, `keys` or `exists`.
 */
export const FUNCTION_OPERATORS = {
  logic: ['if', '?:', 'and', 'or', '!', '!!', '??'],
  comparison: ['==', '===', '!=', '!==', '<', '<=', '>', '>='],
  arithmetic: ['+', '-', '*', '/', '%', 'min', 'max'],
  strings: ['cat', 'substr', 'in'],
  lists: ['map', 'filter', 'reduce', 'all', 'some', 'none', 'merge', 'length'],
  data: ['var', 'missing', 'missing_some', 'preserve', 'eachKey'],
} as const;
export type FunctionOperator = (typeof FUNCTION_OPERATORS)[keyof typeof FUNCTION_OPERATORS][number];
export const OPERATOR_NAMES: ReadonlySet<string> = new Set(Object.values(FUNCTION_OPERATORS).flat());

/** Values (objects, lists, strings, numbers, booleans, nulls) in one program. */
export const MAX_PROGRAM_NODES = 500;
/** Nesting of objects and lists, the program itself being level 1. */
export const MAX_PROGRAM_DEPTH = 32;

/** Names a data path may never name, statically or computed at run time. */
export const FORBIDDEN_PATH_SEGMENTS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
/** The operators whose arguments are data paths. */
const PATH_OPERATORS = new Set(['var', 'missing', 'missing_some']);

const STORABLE_KEY = 'keys must not start with "$" or contain "." or NUL characters';
const badKey = (key: string) => key.startsWith('$') || key.includes('.') || key.includes('\u0000');

/** The first forbidden segment of a data path, if any (`a.__proto__.b` → `__proto__`). */
export function forbiddenSegment(path: unknown): string | null {
  if (typeof path !== 'string' && typeof path !== 'number') return null;
  for (const segment of splitPath(String(path))) if (FORBIDDEN_PATH_SEGMENTS.has(segment)) return segment;
  return null;
}

/**
 * Every problem of a program, each at its path under `path` (`config.program.if.1: unknown
 * operator "eval"`). An empty list means the engine will run it.
 */
export function programIssues(program: unknown, path: string): InputIssue[] {
  const issues: InputIssue[] = [];
  let nodes = 0;
  let tooMany = false;
  const at = (base: string, key: string | number) => `${base}.${key}`;
  const counted = () => {
    if (tooMany) return false;
    if (++nodes <= MAX_PROGRAM_NODES) return true;
    tooMany = true;
    issues.push({ path, message: `has more than ${MAX_PROGRAM_NODES} values (objects, lists and the values in them)` });
    return false;
  };

  // `logic`: an operator call, a list of them, or a literal. `data`: preserved as it is.
  const visit = (value: unknown, where: string, depth: number, kind: 'logic' | 'data'): void => {
    if (!counted()) return;
    if (typeof value === 'number' && !Number.isFinite(value)) return void issues.push({ path: where, message: 'must be a finite number' });
    if (value === null || typeof value !== 'object') return;
    if (depth > MAX_PROGRAM_DEPTH) return void issues.push({ path: where, message: `nests deeper than ${MAX_PROGRAM_DEPTH} levels` });
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        if (Array.isArray(item))
          issues.push({ path: at(where, i), message: 'a list directly inside a list cannot be stored: write the inner list as {"preserve": [...]}' });
        else visit(item, at(where, i), depth + 1, kind);
      });
      return;
    }
    const entries = Object.entries(value);
    if (kind === 'data') {
      for (const [key, child] of entries) {
        if (badKey(key)) issues.push({ path: at(where, key), message: STORABLE_KEY });
        else visit(child, at(where, key), depth + 1, 'data');
      }
      return;
    }
    if (entries.length === 0) return; // `{}` is itself
    if (entries.length > 1) {
      issues.push({
        path: where,
        message: `must be one operator, an object with exactly one key (it has ${entries.length}); write an object as {"eachKey": {...}} or {"preserve": {...}}`,
      });
      return;
    }
    const [operator, args] = entries[0]!;
    if (!OPERATOR_NAMES.has(operator)) return void issues.push({ path: where, message: `unknown operator "${operator}"` });
    const inner = at(where, operator);
    if (operator === 'preserve') return visit(args, inner, depth + 1, 'data');
    if (operator === 'eachKey') {
      if (args === null || typeof args !== 'object' || Array.isArray(args))
        return void issues.push({ path: inner, message: 'must be an object of keys and the programs that give their values' });
      if (!counted()) return;
      for (const [key, child] of Object.entries(args)) {
        if (badKey(key)) issues.push({ path: at(inner, key), message: STORABLE_KEY });
        else visit(child, at(inner, key), depth + 2, 'logic');
      }
      return;
    }
    if (PATH_OPERATORS.has(operator)) pathIssues(operator, args, inner, issues);
    visit(args, inner, depth + 1, 'logic');
  };
  visit(program, path, 1, 'logic');
  return issues;
}

/** Literal data paths that name a forbidden segment (computed ones are refused when they run). */
function pathIssues(operator: string, args: unknown, where: string, issues: InputIssue[]): void {
  const literal = (p: unknown, at: string) => {
    const segment = forbiddenSegment(p);
    if (segment !== null) issues.push({ path: at, message: `a data path must not name "${segment}"` });
  };
  const list = Array.isArray(args) ? args : [args];
  if (operator === 'var') return literal(list[0], Array.isArray(args) ? `${where}.0` : where);
  if (operator === 'missing') return list.forEach((p, i) => literal(p, Array.isArray(args) ? `${where}.${i}` : where));
  // `{"missing_some": [1, {"preserve": ["a", "b"]}]}`: its list of paths is data.
  const paths: unknown = list[1];
  const preserved = paths !== null && typeof paths === 'object' && !Array.isArray(paths) ? (paths as { preserve?: unknown }).preserve : undefined;
  if (Array.isArray(preserved)) preserved.forEach((p, i) => literal(p, `${where}.1.preserve.${i}`));
}
