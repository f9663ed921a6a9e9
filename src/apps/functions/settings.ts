import type { InputIssue } from '../../errors.js';
import { ownValue } from '../../own-keys.js';
import type { FunctionSettings } from './targets.js';

/**
 * A Checkout Function's settings (docs/extensions.md, Checkout Functions): the manifest gives
 * each setting with its default, a string, a number or a boolean; the merchant may later change a
 * value, never its type, and never add a setting. The program reads them as `settings.<key>`.
 */
export const MAX_SETTINGS = 20;
export const MAX_SETTING_STRING = 500;
export const SETTING_KEY = /^[a-z][a-z0-9_]{0,39}$/;
const KEY_MESSAGE = 'must be a setting name: a lowercase letter, then lowercase letters, digits or "_", at most 40 characters';

const valueProblem = (value: unknown): string | null => {
  if (typeof value === 'boolean') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : 'must be a finite number';
  if (typeof value === 'string') return value.length <= MAX_SETTING_STRING ? null : `must be at most ${MAX_SETTING_STRING} characters`;
  return 'must be a string, a number or true or false';
};

/** The manifest's defaults (`config.settings`): a flat object of at most MAX_SETTINGS named values. */
export function settingsIssues(settings: unknown, path: string): InputIssue[] {
  if (settings === null || typeof settings !== 'object' || Array.isArray(settings))
    return [{ path, message: 'must be an object of setting names and their defaults' }];
  const entries = Object.entries(settings);
  const issues: InputIssue[] = [];
  if (entries.length > MAX_SETTINGS) issues.push({ path, message: `must have at most ${MAX_SETTINGS} settings` });
  for (const [key, value] of entries) {
    const problem = SETTING_KEY.test(key) ? valueProblem(value) : KEY_MESSAGE;
    if (problem) issues.push({ path: `${path}.${key}`, message: problem });
  }
  return issues;
}

/** A merchant's values for a function's settings: only settings the manifest declares, each of its default's type. */
export function settingValuesIssues(defaults: FunctionSettings, values: unknown, path: string): InputIssue[] {
  if (values === null || typeof values !== 'object' || Array.isArray(values)) return [{ path, message: 'must be an object of setting names and values' }];
  const issues: InputIssue[] = [];
  for (const [key, value] of Object.entries(values)) {
    const at = `${path}.${key}`;
    const byDefault = ownValue(defaults, key);
    if (byDefault === undefined) issues.push({ path: at, message: 'is not a setting of this function' });
    else if (typeof value !== typeof byDefault) issues.push({ path: at, message: `must be a ${typeof byDefault}, as its default is` });
    else {
      const problem = valueProblem(value);
      if (problem) issues.push({ path: at, message: problem });
    }
  }
  return issues;
}

/** The settings a program sees: the defaults, with the merchant's values (checked by settingValuesIssues) over them. */
export function resolveSettings(defaults: FunctionSettings, values: FunctionSettings = {}): FunctionSettings {
  return Object.fromEntries(Object.entries(defaults).map(([key, value]) => [key, Object.hasOwn(values, key) ? values[key]! : value]));
}
