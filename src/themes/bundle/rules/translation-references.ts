import { isObj, quote, translate } from '../json.js';
import type { BundleCheck, BundleRule } from '../rule.js';

const T_REF = /^t:[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/;

/** The well-formed `t:` references of a bundle: where each is used and the dotted key it names. */
export const translationKeys = (bundle: BundleCheck) =>
  bundle.translatable().flatMap(({ path, value }) => (T_REF.test(value) ? [{ path, key: value.slice(2) }] : []));

export const translationReferences: BundleRule = {
  code: 'translation_references',
  blocking: true,
  description: 'Every "t:" reference (in names, labels, descriptions and text values) is "t:" then a dotted key, and resolves in the default locale en.',
  run(bundle, report) {
    for (const { path, value } of bundle.translatable()) {
      if (!T_REF.test(value)) report(path, `${quote(value)} is not a translation reference: "t:" then a dotted key such as t:sections.hero.name`);
    }
    const en = isObj(bundle.raw.locales) && isObj(bundle.raw.locales.en) ? bundle.raw.locales.en : undefined;
    if (!en) return;
    for (const { path, key } of translationKeys(bundle)) if (translate(en, key) === undefined) report(path, `t:${key} is not in the default locale en`);
  },
};
