import { BundleCheck, type BundleRule } from '../../../src/themes/bundle/rule.js';
import { loadFixture } from '../../helpers/themes.js';

/** What one bundle rule reports, as `path: message`, for a fixture changed by `change`. */
export function findings(rule: BundleRule, change: (b: any) => void = () => {}, fixture = 'aurora'): string[] {
  const b = loadFixture(fixture) as any;
  change(b);
  const found: string[] = [];
  rule.run(new BundleCheck(b), (path, message) => void found.push(`${path}: ${message}`));
  return found;
}
