import type { Platform } from '../../../platform.js';
import type { ThemeBundle } from '../../bundle/types.js';
import type { ThemeVersionDocument } from '../../packages/models.js';
import type { CheckStatus, ReviewCheck } from '../models.js';
import type { ThemeReviewCheck } from '../check.js';
import { bundleSchemaValidation } from './bundle-schema-validation.js';
import { liquidSyntax } from './liquid-syntax.js';
import { localeCoverage } from './locale-coverage.js';
import { settingsLabels } from './settings-labels.js';
import { themePackagePersistence } from './theme-package-persistence.js';

/**
 * The automated checks of a theme review, in the order they run and are listed in the review
 * (docs/themes.md, Review). A new check is a file in this folder and one line here.
 */
export const REVIEW_CHECKS: readonly ThemeReviewCheck[] = [bundleSchemaValidation, themePackagePersistence, liquidSyntax, settingsLabels, localeCoverage];

/** A new review's checks, pending: those that apply to the bundle. */
export function initialChecks(bundle: ThemeBundle): ReviewCheck[] {
  return REVIEW_CHECKS.filter((c) => c.appliesTo?.(bundle) ?? true).map((c) => ({ name: c.code, status: 'pending', details: [], ran_at: null }));
}

/** One check by its name, run afresh: a finding fails a blocking check and warns otherwise; a name no check has (a review stored by an older platform) fails. */
export async function runCheck(platform: Platform, name: string, version: ThemeVersionDocument): Promise<{ status: CheckStatus; details: string[] }> {
  const check = REVIEW_CHECKS.find((c) => c.code === name);
  if (!check) return { status: 'failed', details: [`unknown check ${name}`] };
  const details = await check.run(platform, version);
  return { status: details.length === 0 ? 'passed' : check.blocking ? 'failed' : 'warning', details };
}
