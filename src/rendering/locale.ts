/** The theme's translation of dotted `key` in the page's locale, falling back to `en` (docs/rendering.md, Locales). */
export type Translate = (key: string) => string | null;

export const DEFAULT_LOCALE = 'en';
export const LOCALE_PATTERN = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/** The locales tried, best first: the one asked for (`es-MX`), its language (`es`), then `en`. */
export function localeChain(locale: string): string[] {
  const chain = [locale];
  const language = locale.split('-')[0]!;
  if (language !== locale) chain.push(language);
  chain.push(DEFAULT_LOCALE);
  return [...new Set(chain)];
}

function lookup(dictionary: Record<string, unknown> | undefined, key: string): string | null {
  let node: unknown = dictionary;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, part)) return null;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : null;
}

export function translator(locales: Record<string, Record<string, unknown>>, locale: string): Translate {
  const dictionaries = localeChain(locale).map((l) => (Object.hasOwn(locales, l) ? locales[l] : undefined));
  return (key) => {
    for (const dictionary of dictionaries) {
      const found = lookup(dictionary, key);
      if (found !== null) return found;
    }
    return null;
  };
}

/** A value as shown: a `t:` reference resolved (the key itself when no locale has it), anything else as it is. */
export function resolveReference(value: unknown, t: Translate): unknown {
  if (typeof value !== 'string' || !value.startsWith('t:')) return value;
  const key = value.slice(2);
  return t(key) ?? key;
}

/** `{{ name }}` placeholders of a translation filled from `vars` (each through `encode`). */
export function interpolate(text: string, vars: Record<string, unknown>, encode: (value: unknown) => string): string {
  return text.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (_, name: string) => (Object.hasOwn(vars, name) ? encode(vars[name]) : ''));
}
