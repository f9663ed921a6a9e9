import { Ajv } from 'ajv';
import { schemaIssue } from '../../../schema-issues.js';
import type { BundleRule } from '../rule.js';
import { BUNDLE_JSON_SCHEMA } from '../schema.js';

const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, verbose: true, allowUnionTypes: true });
ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
const checkShape = ajv.compile(BUNDLE_JSON_SCHEMA);

export const jsonSchema: BundleRule = {
  code: 'json_schema',
  blocking: true,
  description: 'The bundle has the shape the published JSON Schema (GET /v1/themes/bundle-schema) describes: every shape problem at once.',
  run(bundle, report) {
    if (checkShape(bundle.raw)) return;
    for (const error of checkShape.errors ?? []) {
      if (error.keyword === 'if' || error.keyword === 'propertyNames') continue;
      const issue = schemaIssue(error);
      report(issue.path, issue.message);
    }
  },
};
