import { expect } from 'chai';
import { missingTemplates } from '../../../src/themes/bundle/rules/missing-templates.js';
import { findings } from './run-rule.js';

describe('bundle rule missing_templates (a warning)', () => {
  it('does not block', () => expect(missingTemplates.blocking).to.equal(false));

  it('finds nothing when every template is there', () => expect(findings(missingTemplates)).to.deep.equal([]));

  it("warns about each template left out but home (the platform's fallback serves it)", () => {
    expect(
      findings(missingTemplates, (b) => {
        delete b.templates.blog;
        delete b.templates.cart;
      }),
    ).to.deep.equal([
      "templates.cart: is missing: cart pages use the platform's fallback template",
      "templates.blog: is missing: blog pages use the platform's fallback template",
    ]);
  });
});
