import { isNum } from '../json.js';
import type { BundleRule } from '../rule.js';
import { PACKAGE_DEFAULTS } from '../schema.js';

export const packagePrice: BundleRule = {
  code: 'package_price',
  blocking: true,
  description: 'The price agrees with pricing_type (0 when free, more than 0 and required when paid) and has at most two decimal places.',
  run({ package: p }, report) {
    const pricing = p.pricing_type ?? PACKAGE_DEFAULTS.pricing_type;
    if (isNum(p.price)) {
      if (pricing === 'free' && p.price !== 0) report('package.price', 'must be 0 for a free theme (pricing_type "free")');
      if (pricing === 'paid' && p.price <= 0) report('package.price', 'must be more than 0 for a paid theme (pricing_type "paid")');
      if (Math.abs(Math.round(p.price * 100) - p.price * 100) > 1e-6) report('package.price', 'must have at most two decimal places');
    } else if (pricing === 'paid' && p.price === undefined) {
      report('package.price', 'is required for a paid theme (pricing_type "paid")');
    }
  },
};
