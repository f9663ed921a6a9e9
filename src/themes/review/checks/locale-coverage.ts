import type { ThemeReviewCheck } from '../check.js';

function flatKeys(dictionary: unknown, prefix = ''): string[] {
  if (!dictionary || typeof dictionary !== 'object' || Array.isArray(dictionary)) return prefix ? [prefix] : [];
  return Object.entries(dictionary as Record<string, unknown>).flatMap(([k, v]) => flatKeys(v, prefix ? `${prefix}.${k}` : k));
}

export const localeCoverage: ThemeReviewCheck = {
  code: 'locale_coverage',
  blocking: false,
  description: "Each locale's keys against the default locale en: how many fall back to en.",
  run(_platform, { bundle }) {
    const base = new Set(flatKeys(bundle.locales.en ?? {}));
    const details: string[] = [];
    for (const [locale, dictionary] of Object.entries(bundle.locales)) {
      if (locale === 'en') continue;
      const keys = new Set(flatKeys(dictionary));
      const missing = [...base].filter((k) => !keys.has(k));
      if (missing.length > 0)
        details.push(`${locale}: ${missing.length} of ${base.size} keys fall back to en (${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''})`);
    }
    return details;
  },
};
