import type { BundleRule } from '../rule.js';
import { appBlocks } from './app-blocks.js';
import { assetEntries } from './asset-entries.js';
import { blockDefinitions } from './block-definitions.js';
import { compatibilityRange } from './compatibility-range.js';
import { fileLayout } from './file-layout.js';
import { jsonSchema } from './json-schema.js';
import { liquidBounds } from './liquid-bounds.js';
import { liquidFiles } from './liquid-files.js';
import { localeDictionaries } from './locale-dictionaries.js';
import { missingTemplates } from './missing-templates.js';
import { packagePrice } from './package-price.js';
import { sectionDefinitions } from './section-definitions.js';
import { settingFields } from './setting-fields.js';
import { settingValues } from './setting-values.js';
import { templateReferences } from './template-references.js';
import { translationFallbacks } from './translation-fallbacks.js';
import { translationReferences } from './translation-references.js';
import { unrenderedContent } from './unrendered-content.js';

/**
 * The bundle rules, in the order they run (docs/themes.md, Validation rules): the JSON Schema,
 * then the rules it cannot express. Issues and warnings are reported in this order. A new rule is
 * a file in this folder and one line here (docs/themes.md says how).
 */
export const BUNDLE_RULES: readonly BundleRule[] = [
  jsonSchema,
  packagePrice,
  compatibilityRange,
  assetEntries,
  liquidBounds,
  settingFields,
  settingValues,
  blockDefinitions,
  sectionDefinitions,
  templateReferences,
  appBlocks,
  unrenderedContent,
  missingTemplates,
  translationReferences,
  localeDictionaries,
  translationFallbacks,
  liquidFiles,
  fileLayout,
];
