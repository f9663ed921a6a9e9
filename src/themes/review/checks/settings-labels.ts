import type { ThemeReviewCheck } from '../check.js';

export const settingsLabels: ThemeReviewCheck = {
  code: 'settings_labels',
  blocking: false,
  description: 'Every setting and option a person can read: a label, not the setting id, and options labelled.',
  run(_platform, { bundle }) {
    const details: string[] = [];
    const fields = [
      ...bundle.config.settings_schema.settings.flatMap((g, gi) =>
        g.settings.map((f, fi) => ({ f, at: `config.settings_schema.settings.${gi}.settings.${fi}` })),
      ),
      ...Object.entries(bundle.sections).flatMap(([type, s]) => s.settings_schema.map((f, fi) => ({ f, at: `sections.${type}.settings_schema.${fi}` }))),
      ...Object.entries(bundle.blocks).flatMap(([type, b]) => b.settings_schema.map((f, fi) => ({ f, at: `blocks.${type}.settings_schema.${fi}` }))),
    ];
    for (const { f, at } of fields) {
      if (!f.label?.trim()) details.push(`${at}: setting ${f.id} has no label`);
      for (const [oi, o] of (f.options ?? []).entries()) if (!o.label?.trim()) details.push(`${at}.options.${oi}: option ${o.value} has no label`);
      if (f.label && f.label.trim().length > 0 && f.label.trim() === f.id) details.push(`${at}: the label of ${f.id} is its id; write it for a person`);
    }
    return details;
  },
};
