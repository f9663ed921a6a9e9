import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { expect } from 'chai';
import { MAX_BUNDLE_BYTES, MAX_BUNDLE_DEPTH, MAX_TEMPLATE_SECTIONS } from '../../src/themes/bundle/schema.js';
import { validateBundle } from '../../src/themes/bundle/validate.js';
import { useTestApp } from '../helpers/app.js';
import { client } from '../helpers/http.js';
import { inlineAsset, loadFixture } from '../helpers/themes.js';

const context = { config: { env: 'test' as const } };
const validate = (bundle: unknown) => validateBundle(bundle, context);

/** The issues of a fixture changed by `change`; it must fail, without a bundle. */
function issuesOf(change: (b: any) => void, fixture = 'aurora'): string[] {
  const b = loadFixture(fixture) as any;
  change(b);
  const result = validate(b);
  expect(result.ok, 'expected the bundle to fail').to.equal(false);
  expect(result).to.not.have.property('bundle');
  return result.issues;
}
/** The issue at exactly `path` (the text before ": "), matching `pattern` if given. */
function expectIssue(issues: string[], path: string, pattern?: RegExp): void {
  const found = issues.filter((i) => i.startsWith(`${path}: `) && (!pattern || pattern.test(i)));
  expect(found, `no issue at ${path}${pattern ? ` matching ${pattern}` : ''} among ${JSON.stringify(issues, null, 1)}`).to.not.be.empty;
}
function expectOk(b: unknown) {
  const result = validate(b);
  expect(result.issues, JSON.stringify(result.issues)).to.deep.equal([]);
  expect(result.ok).to.equal(true);
  return result;
}

describe('Theme bundles (validateBundle, schema version 2026-05-json-contract)', () => {
  describe('the fixtures', () => {
    for (const name of ['aurora', 'ember-liquid']) {
      it(`validates fixtures/themes/${name}/ with no issue and no warning`, () => {
        const result = expectOk(loadFixture(name));
        expect(result.warnings).to.deep.equal([]);
        expect(result.bundle!.package.slug).to.equal(name);
      });

      it(`validates the normalised ${name} again unchanged (the review re-validates what was stored)`, () => {
        const once = expectOk(loadFixture(name)).bundle!;
        const twice = expectOk(JSON.parse(JSON.stringify(once))).bundle!;
        expect(twice).to.deep.equal(once);
      });
    }

    it('validates the example of docs/themes.md', () => {
      const doc = readFileSync(new URL('../../../docs/themes.md', import.meta.url), 'utf8');
      const example = /```json\n([\s\S]*?)\n```/.exec(doc)?.[1];
      expect(example, 'docs/themes.md has a json example').to.be.a('string');
      expectOk(JSON.parse(example!));
    });

    it('gives each loadFixture call its own copy', () => {
      const a = loadFixture('aurora') as any;
      a.package.slug = 'changed';
      expect((loadFixture('aurora') as any).package.slug).to.equal('aurora');
    });
  });

  describe('spec 7, row by row', () => {
    it('a template order entry naming a missing section id: template.order, naming the template and the id', () => {
      const issues = issuesOf((b) => b.templates.home.order.push('hero-2'));
      expect(issues).to.include('template.order: templates.home.order names "hero-2", which is not a section of the home template');
    });

    it('a section block_order entry naming a missing block id: sections.<sectionId>.block_order', () => {
      const issues = issuesOf((b) => b.templates.product.sections.main.block_order.push('sku'));
      expectIssue(issues, 'sections.main.block_order', /templates\.product\.sections\.main\.block_order \(product template\) names "sku"/);
    });

    it('a section map key that differs from section.type: sections.<key>.type', () => {
      const issues = issuesOf((b) => (b.sections.hero.type = 'banner'));
      expect(issues).to.include('sections.hero.type: must equal its key "hero" (sections are keyed by type), not "banner"');
    });

    it('a block map key that differs from block.type: blocks.<key>.type', () => {
      const issues = issuesOf((b) => (b.blocks.heading.type = 'title'));
      expect(issues).to.include('blocks.heading.type: must equal its key "heading" (blocks are keyed by type), not "title"');
    });

    it('a section block_types entry naming an undefined block: sections.<sectionType>.block_types', () => {
      const issues = issuesOf((b) => b.sections['rich-text'].block_types.push('quote'));
      expect(issues).to.include('sections.rich-text.block_types: names block type "quote", which has no definition in blocks');
    });

    it('a template section type with no section definition: templates.<templateKey>.sections.<sectionId>.type', () => {
      const issues = issuesOf((b) => (b.templates.home.sections.featured.type = 'carousel'));
      expect(issues).to.include('templates.home.sections.featured.type: names section type "carousel", which has no definition in sections');
    });

    it('a template block type with no block definition: templates.<templateKey>.sections.<sectionId>.blocks.<blockId>.type', () => {
      const issues = issuesOf((b) => (b.templates.home.sections.hero.blocks.heading.type = 'countdown'));
      expect(issues).to.include('templates.home.sections.hero.blocks.heading.type: names block type "countdown", which has no definition in blocks');
    });

    it("a template block type outside the section's non-empty block_types: rejected at the block's type", () => {
      const issues = issuesOf((b) => (b.templates.product.sections.main.blocks.title.type = 'email-form'));
      expect(issues).to.include(
        'templates.product.sections.main.blocks.title.type: block type "email-form" is not one section "main-product" accepts (block_types: product-title, product-price, variant-picker, quantity-selector, buy-buttons, product-description, text)',
      );
    });

    it('an empty block_types skips that check', () => {
      const b = loadFixture('aurora') as any;
      b.sections['main-product'].block_types = [];
      b.templates.product.sections.main.blocks.title.type = 'email-form';
      expectOk(b);
    });

    it('a failing bundle has issues and no bundle', () => {
      const result = validate({ ...loadFixture('aurora'), templates: { home: { sections: {}, order: ['x'] } } });
      expect(result.ok).to.equal(false);
      expect(result.bundle).to.equal(undefined);
    });
  });

  describe('the rules the spec implies', () => {
    it('slug: lowercase kebab-case', () => {
      for (const slug of ['Aurora', 'aurora_theme', 'aurora--x', '-aurora', 'au']) {
        expectIssue(
          issuesOf((b) => (b.package.slug = slug)),
          'package.slug',
        );
      }
    });

    it('schema_version and renderer.renderer_version are exact; renderer.engine is json-contract or liquid', () => {
      const issues = issuesOf((b) => {
        b.schema_version = '2026-04-json-contract';
        b.renderer.renderer_version = '1.0.1';
        b.renderer.engine = 'handlebars';
      });
      expect(issues).to.include('schema_version: must be "2026-05-json-contract"');
      expect(issues).to.include('renderer.renderer_version: must be "1.0.0"');
      expect(issues).to.include('renderer.engine: must be one of json-contract, liquid');
    });

    it('version is semver; compatibility_range is a semver range that admits renderer 1.0.0', () => {
      expectIssue(
        issuesOf((b) => (b.package.version = 'v1.2')),
        'package.version',
        /semantic version/,
      );
      expectIssue(
        issuesOf((b) => (b.package.compatibility_range = 'one or two')),
        'package.compatibility_range',
        /semver range/,
      );
      expect(issuesOf((b) => (b.package.compatibility_range = '^2.0.0'))).to.include(
        'package.compatibility_range: must admit the renderer version 1.0.0 ("^2.0.0" does not)',
      );
      const b = loadFixture('aurora') as any;
      b.package.compatibility_range = '>=1.0.0 <3';
      expectOk(b);
    });

    it('price agrees with pricing_type and has at most two decimals; currency is ISO 4217', () => {
      expectIssue(
        issuesOf((b) => (b.package.price = 10)),
        'package.price',
        /must be 0 for a free theme/,
      );
      expectIssue(
        issuesOf((b) => Object.assign(b.package, { pricing_type: 'paid', price: 0 })),
        'package.price',
        /more than 0/,
      );
      expectIssue(
        issuesOf((b) => Object.assign(b.package, { pricing_type: 'paid', price: 19.999 })),
        'package.price',
        /two decimal places/,
      );
      expectIssue(
        issuesOf((b) => (b.package.currency = 'usd')),
        'package.currency',
        /ISO 4217/,
      );
      expectIssue(
        issuesOf((b) => (b.package.pricing_type = 'subscription')),
        'package.pricing_type',
      );
    });

    it('setting types are only those of spec 2.5', () => {
      const issues = issuesOf((b) => (b.config.settings_schema.settings[0].settings[0].type = 'date'));
      expectIssue(
        issues,
        'config.settings_schema.settings.0.settings.0.type',
        /must be one of text, textarea, richtext, color, image, select, toggle, range, number, url, radio/,
      );
    });

    it('range: min, max, step and default required; min < max; whole steps, at most 101; default within bounds and on a step', () => {
      const at = 'sections.hero.settings_schema.2'; // overlay_opacity: 0..90 step 10
      expectIssue(
        issuesOf((b) => delete b.sections.hero.settings_schema[2].step),
        `${at}.step`,
        /is required/,
      );
      expectIssue(
        issuesOf((b) => delete b.sections.hero.settings_schema[2].default),
        `${at}.default`,
        /is required/,
      );
      expectIssue(
        issuesOf((b) => (b.sections.hero.settings_schema[2].min = 90)),
        `${at}.max`,
        /greater than min/,
      );
      expectIssue(
        issuesOf((b) => (b.sections.hero.settings_schema[2].step = 0)),
        `${at}.step`,
        /greater than 0/,
      );
      expectIssue(
        issuesOf((b) => (b.sections.hero.settings_schema[2].step = 7)),
        `${at}.step`,
        /whole steps/,
      );
      expectIssue(
        issuesOf((b) => Object.assign(b.sections.hero.settings_schema[2], { step: 0.5 })),
        `${at}.step`,
        /at most 101 positions/,
      );
      expectIssue(
        issuesOf((b) => (b.sections.hero.settings_schema[2].default = 95)),
        `${at}.default`,
        /at most 90/,
      );
      expectIssue(
        issuesOf((b) => (b.sections.hero.settings_schema[2].default = 25)),
        `${at}.default`,
        /on a step of 10 from 0/,
      );
      expectIssue(
        issuesOf((b) => (b.sections.hero.settings_schema[2].default = '20')),
        `${at}.default`,
        /must be a number/,
      );
    });

    it('number: min < max, default within bounds and on its step', () => {
      const at = 'sections.main-blog.settings_schema.2'; // posts_per_page: 3..24 step 3
      expectIssue(
        issuesOf((b) => (b.sections['main-blog'].settings_schema[2].default = 30)),
        `${at}.default`,
        /at most 24/,
      );
      expectIssue(
        issuesOf((b) => (b.sections['main-blog'].settings_schema[2].default = 10)),
        `${at}.default`,
        /on a step of 3 from 3/,
      );
      expectIssue(
        issuesOf((b) => (b.sections['main-blog'].settings_schema[2].max = 2)),
        `${at}.max`,
        /greater than min/,
      );
    });

    it('select and radio: options required and non-empty, values unique, default one of them', () => {
      const at = 'sections.hero.settings_schema.1'; // height: small, medium, large
      expectIssue(
        issuesOf((b) => delete b.sections.hero.settings_schema[1].options),
        `${at}.options`,
        /is required/,
      );
      expectIssue(
        issuesOf((b) => (b.sections.hero.settings_schema[1].options = [])),
        `${at}.options`,
        /at least 1 item/,
      );
      expectIssue(
        issuesOf((b) => (b.sections.hero.settings_schema[1].options[2].value = 'small')),
        `${at}.options.2.value`,
        /same value as options.0.value/,
      );
      expectIssue(
        issuesOf((b) => (b.sections.hero.settings_schema[1].default = 'huge')),
        `${at}.default`,
        /one of the options "small", "medium", "large"/,
      );
      expectIssue(
        issuesOf((b) => (b.config.settings_schema.settings[1].settings[1].default = 'mono')),
        'config.settings_schema.settings.1.settings.1.default',
        /radio setting "font_body"/,
      );
    });

    it('color: #rgb, #rgba, #rrggbb or #rrggbbaa', () => {
      for (const bad of ['red', '#12345', '#ggg', 'rgb(0,0,0)']) {
        expectIssue(
          issuesOf((b) => (b.config.settings_schema.settings[0].settings[0].default = bad)),
          'config.settings_schema.settings.0.settings.0.default',
          /must be a colour/,
        );
      }
      const b = loadFixture('aurora') as any;
      b.config.settings_data.current.color_text = '#1a1a1acc';
      expectOk(b);
    });

    it('url: http(s) or a path starting with "/"', () => {
      for (const bad of ['javascript:alert(1)', '//evil.example', 'ftp://example.com/x', 'collections/all', 'https://user:pw@example.com/']) {
        expectIssue(
          issuesOf((b) => (b.blocks.button.settings_schema[1].default = bad)),
          'blocks.button.settings_schema.1.default',
          /http\(s\) URL or a path/,
        );
      }
    });

    it('toggle: true or false; text: a string within its length', () => {
      expectIssue(
        issuesOf((b) => (b.config.settings_schema.settings[2].settings[1].default = 'yes')),
        'config.settings_schema.settings.2.settings.1.default',
        /true or false/,
      );
      expectIssue(
        issuesOf((b) => (b.sections['featured-collection'].settings_schema[0].default = 'x'.repeat(1001))),
        'sections.featured-collection.settings_schema.0.default',
        /at most 1000 characters/,
      );
      expectIssue(
        issuesOf((b) => (b.blocks.text.settings_schema[0].default = 42)),
        'blocks.text.settings_schema.0.default',
        /must be a string \(richtext/,
      );
    });

    it('image: the path of an image among the assets, or a media id', () => {
      const at = 'config.settings_schema.settings.3.settings.0.default';
      expectIssue(
        issuesOf((b) => (b.config.settings_schema.settings[3].settings[0].default = 'assets/missing.png')),
        at,
        /neither/,
      );
      expectIssue(
        issuesOf((b) => (b.config.settings_schema.settings[3].settings[0].default = 'assets/base.css')),
        at,
        /text\/css, not an image/,
      );
      const b = loadFixture('aurora') as any;
      b.config.settings_schema.settings[3].settings[0].default = '65f1c0ffee00000000000001';
      expectOk(b);
    });

    it('a key of a setting field that does not apply to its type', () => {
      expectIssue(
        issuesOf((b) => (b.blocks.heading.settings_schema[0].options = [{ value: 'a', label: 'A' }])),
        'blocks.heading.settings_schema.0.options',
        /does not apply to a text setting/,
      );
      expectIssue(
        issuesOf((b) => (b.blocks.heading.settings_schema[1].min = 1)),
        'blocks.heading.settings_schema.1.min',
        /does not apply to a select setting/,
      );
    });

    it("setting ids are unique within their schema (the theme's groups share one)", () => {
      const issues = issuesOf((b) => (b.config.settings_schema.settings[6].settings[0].id = 'color_accent'));
      expect(issues).to.include(
        'config.settings_schema.settings.6.settings.0.id: is the same id as config.settings_schema.settings.0.settings.2.id (setting ids are unique within their schema)',
      );
      expectIssue(
        issuesOf((b) => (b.sections.hero.settings_schema[1].id = 'image')),
        'sections.hero.settings_schema.1.id',
        /same id as sections.hero.settings_schema.0.id/,
      );
    });

    it('settings_data.current and its presets name theme settings, with valid values', () => {
      const issues = issuesOf((b) => {
        b.config.settings_data.current.colour_accent = '#000';
        b.config.settings_data.current.base_font_size = 30;
        b.config.settings_data.presets.Midnight.color_text = 'white';
      });
      expect(issues).to.include('config.settings_data.current.colour_accent: is not a setting of the theme settings (config.settings_schema)');
      expectIssue(issues, 'config.settings_data.current.base_font_size', /at most 24/);
      expectIssue(issues, 'config.settings_data.presets.Midnight.color_text', /must be a colour/);
    });

    it("section and block defaults and presets, and a template's section and block settings, are valid for their fields", () => {
      const issues = issuesOf((b) => {
        b.sections.hero.defaults.height = 'tall';
        b.sections.hero.presets[0].settings.overlay = 1;
        b.blocks.heading.defaults.size = 'xl';
        b.templates.home.sections.hero.settings.overlay_opacity = 35;
        b.templates.home.sections.hero.blocks.button.settings.link = 'mailto:x@example.com';
        b.templates.home.sections.featured.settings.colour = 'red';
      });
      expectIssue(issues, 'sections.hero.defaults.height', /one of the options/);
      expect(issues).to.include('sections.hero.presets.0.settings.overlay: is not a setting of section "hero"');
      expectIssue(issues, 'blocks.heading.defaults.size', /one of the options/);
      expectIssue(issues, 'templates.home.sections.hero.settings.overlay_opacity', /on a step of 10/);
      expectIssue(issues, 'templates.home.sections.hero.blocks.button.settings.link', /http\(s\) URL/);
      expect(issues).to.include('templates.home.sections.featured.settings.colour: is not a setting of section "featured-collection"');
    });

    it('hostile keys in free-form objects ($-prefixed, dotted, NUL) are issues, never a crash', () => {
      const issues = issuesOf((b) => {
        b.config.settings_data.current.$where = 'sleep(1000)';
        b.config.settings_data.current['a.b'] = 1;
        b.templates.home.sections.hero.settings['x\u0000'] = 1;
        b.locales.en.$set = { x: 'y' };
        b.locales.fr.sections['hero.name'] = 'Bannière';
      });
      expectIssue(issues, 'config.settings_data.current.$where', /must not start with "\$"/);
      expectIssue(issues, 'config.settings_data.current.a.b', /must not start with "\$"/);
      expectIssue(issues, 'templates.home.sections.hero.settings.x\u0000', /NUL/);
      expectIssue(issues, 'locales.en.$set', /must not start with "\$"/);
      expectIssue(issues, 'locales.fr.sections.hero.name', /contain "\."/);
      expectIssue(
        issuesOf((b) => (b.templates.home.sections['$bad'] = { type: 'hero' })),
        'templates.home.sections.$bad',
        /not a valid id/,
      );
      expectIssue(
        issuesOf((b) => (b.sections['a.b'] = { type: 'a.b', name: 'X' })),
        'sections.a.b',
        /not a valid section type/,
      );
    });

    it("template keys come from the spec's list, and home is required", () => {
      expect(issuesOf((b) => (b.templates.search = b.templates.page))).to.include(
        'templates.search: is not a template key: the keys are home, product, collection, page, cart, blog',
      );
      expect(issuesOf((b) => delete b.templates.home)).to.include('templates.home: is required');
    });

    it('enabled_on names real template keys, and a template uses only sections enabled on it', () => {
      expectIssue(
        issuesOf((b) => (b.sections.hero.enabled_on = ['home', 'search'])),
        'sections.hero.enabled_on.1',
        /must be one of home, product/,
      );
      const issues = issuesOf((b) => {
        b.templates.product.sections.banner = { type: 'hero' };
        b.templates.product.order.push('banner');
      });
      expect(issues).to.include(
        'templates.product.sections.banner.type: section "hero" is not enabled on the product template (enabled_on: home, collection, page)',
      );
    });

    it('every t: reference resolves in the default locale en; another locale missing it is only a warning', () => {
      expect(issuesOf((b) => delete b.locales.en.sections.hero.name)).to.include('sections.hero.name: t:sections.hero.name is not in the default locale en');
      expect(issuesOf((b) => (b.templates.home.sections.newsletter.blocks.heading.settings.heading = 't:sections.newsletter.missing'))).to.include(
        'templates.home.sections.newsletter.blocks.heading.settings.heading: t:sections.newsletter.missing is not in the default locale en',
      );
      expectIssue(
        issuesOf((b) => (b.sections.hero.name = 't:sections..hero')),
        'sections.hero.name',
        /is not a translation reference/,
      );

      const b = loadFixture('aurora') as any;
      delete b.locales.fr.sections.hero.name;
      delete b.locales.fr.options;
      const result = expectOk(b);
      expect(result.warnings).to.include('locales.fr: t:sections.hero.name is missing (used at sections.hero.name); en is shown instead');
      expect(result.warnings.filter((w) => w.includes('t:options.small '))).to.have.length(1); // once per key, however often it is used
    });

    it('locales: en required, codes well formed, dictionaries of strings', () => {
      expect(issuesOf((b) => delete b.locales.en)).to.include('locales.en: is required');
      expectIssue(
        issuesOf((b) => (b.locales.French = {})),
        'locales.French',
        /not a locale code/,
      );
      expectIssue(
        issuesOf((b) => (b.locales.fr.options.small = 3)),
        'locales.fr.options.small',
        /must be a string or an object/,
      );
    });

    it('assets: a relative path in a theme folder, without "..", unique', () => {
      for (const path of ['../secrets.css', '/assets/base.css', 'assets/../base.css', 'assets/.hidden.css', 'styles/base.css', 'assets//x.css']) {
        expectIssue(
          issuesOf((b) => (b.renderer.assets[0].path = path)),
          'renderer.assets.0.path',
          /must be a relative path/,
        );
      }
      expectIssue(
        issuesOf((b) => (b.renderer.assets[1].path = 'assets/Base.css')),
        'renderer.assets.1.path',
        /same path as renderer.assets.0.path/,
      );
    });

    it('assets: an allowed content type matching the extension; size and sha256 of the inline content', () => {
      expectIssue(
        issuesOf((b) => (b.renderer.assets[0].content_type = 'text/html')),
        'renderer.assets.0.content_type',
        /must be one of text\/css/,
      );
      expectIssue(
        issuesOf((b) => (b.renderer.assets[0].content_type = 'text/javascript')),
        'renderer.assets.0.content_type',
        /for files ending \.js or \.mjs/,
      );
      expectIssue(
        issuesOf((b) => (b.renderer.assets[0].size += 1)),
        'renderer.assets.0.size',
        /UTF-8 bytes/,
      );
      expectIssue(
        issuesOf((b) => (b.renderer.assets[0].sha256 = '0'.repeat(64))),
        'renderer.assets.0.sha256',
        /does not match the content/,
      );
      expectIssue(
        issuesOf((b) => (b.renderer.assets[0].sha256 = 'ABC')),
        'renderer.assets.0.sha256',
        /64 lowercase hex/,
      );
    });

    it('assets: exactly one of inline content or a media id; binary types by media id only', () => {
      expectIssue(
        issuesOf((b) => (b.renderer.assets[0].media_id = '65f1c0ffee00000000000001')),
        'renderer.assets.0',
        /exactly one of content/,
      );
      expectIssue(
        issuesOf((b) => delete b.renderer.assets[0].content),
        'renderer.assets.0',
        /exactly one of content/,
      );
      expectIssue(
        issuesOf((b) => b.renderer.assets.push(inlineAsset('assets/photo.png', 'image/png', 'not really a png'))),
        `renderer.assets.${(loadFixture('aurora') as any).renderer.assets.length}.content`,
        /image\/png is binary/,
      );
      const b = loadFixture('aurora') as any;
      b.renderer.assets.push({
        path: 'assets/photo.jpg',
        content_type: 'image/jpeg',
        size: 48_213,
        sha256: 'a'.repeat(64),
        media_id: '65f1c0ffee00000000000001',
      });
      b.templates.home.sections.hero.settings.image = 'assets/photo.jpg';
      expectOk(b);
    });

    it('assets: count, per-asset and total size limits', () => {
      expectIssue(
        issuesOf((b) => (b.renderer.assets = Array.from({ length: 251 }, (_, i) => inlineAsset(`assets/a${i}.css`, 'text/css', 'a{}')))),
        'renderer.assets',
        /at most 250 items/,
      );
      expectIssue(
        issuesOf((b) => (b.renderer.assets[0] = { ...b.renderer.assets[0], content: undefined, media_id: '65f1c0ffee00000000000001', size: 30_000_000 })),
        'renderer.assets.0.size',
        /at most 20971520/,
      );
      const issues = issuesOf((b) => {
        for (let i = 0; i < 3; i++)
          b.renderer.assets.push({
            path: `assets/video-poster-${i}.webp`,
            content_type: 'image/webp',
            size: 20_000_000,
            sha256: 'b'.repeat(64),
            media_id: '65f1c0ffee0000000000000' + i,
          });
      });
      expectIssue(issues, 'renderer.assets', /must total at most 52428800 bytes/);
    });

    it("liquid themes: layout/theme.liquid and each section's sections/<renderer_key>.liquid among the assets", () => {
      const issues = issuesOf((b) => {
        b.renderer.assets = b.renderer.assets.filter((a: any) => a.path !== 'layout/theme.liquid' && a.path !== 'sections/main-page.liquid');
      }, 'ember-liquid');
      expect(issues).to.include('renderer.assets: must include layout/theme.liquid (text/x-liquid): the layout every page of a Liquid theme renders in');
      expect(issues).to.include(
        'sections.main-page.renderer_key: names "main-page", but sections/main-page.liquid (text/x-liquid) is not among renderer.assets',
      );
      expect(issuesOf((b) => (b.renderer.liquid_ready = false), 'ember-liquid')).to.include('renderer.liquid_ready: must be true for a liquid theme');
      // A json-contract theme that says it is liquid_ready carries its Liquid sources too.
      expectIssue(
        issuesOf((b) => (b.renderer.liquid_ready = true)),
        'sections.hero.renderer_key',
        /sections\/hero.liquid/,
      );
    });

    it('the file layout: a layout JSON file must hold the same JSON as its bundle area; other JSON files there are refused', () => {
      const b = loadFixture('ember-liquid') as any;
      b.renderer.assets = b.renderer.assets.filter((a: any) => a.path !== 'config/settings_data.json');
      const at = b.renderer.assets.findIndex((a: any) => a.path === 'templates/home.json');
      const changed = JSON.parse(b.renderer.assets[at].content);
      changed.order.reverse();
      b.renderer.assets[at] = inlineAsset('templates/home.json', 'application/json', JSON.stringify(changed));
      b.renderer.assets.push(inlineAsset('templates/search.json', 'application/json', '{}'), inlineAsset('config/settings_data.json', 'application/json', '{'));
      const issues = validate(b).issues;
      expectIssue(issues, `renderer.assets.${at}.content`, /templates\/home.json disagrees with templates.home/);
      expectIssue(issues, `renderer.assets.${b.renderer.assets.length - 2}.path`, /"templates\/search.json" is not a file of the theme layout/);
      expectIssue(issues, `renderer.assets.${b.renderer.assets.length - 1}.content`, /config\/settings_data.json is not valid JSON/);

      // Key order does not matter.
      const ok = loadFixture('ember-liquid') as any;
      const i = ok.renderer.assets.findIndex((a: any) => a.path === 'blocks/definitions.json');
      const reordered = Object.fromEntries(Object.entries(JSON.parse(ok.renderer.assets[i].content)).reverse());
      ok.renderer.assets[i] = inlineAsset('blocks/definitions.json', 'application/json', JSON.stringify(reordered));
      expectOk(ok);
    });

    it('limits: depth, size and counts are checked before the schema walks the bundle', () => {
      let deep: any = 'x';
      for (let i = 0; i < MAX_BUNDLE_DEPTH + 5; i++) deep = { d: deep };
      expect(issuesOf((b) => (b.locales.en.deep = deep))).to.deep.equal([`bundle: must not nest objects and arrays deeper than ${MAX_BUNDLE_DEPTH} levels`]);
      const big = issuesOf((b) => (b.package.name = 'x'.repeat(MAX_BUNDLE_BYTES)));
      expect(big).to.have.length(1);
      expect(big[0]).to.match(/^bundle: must be at most 5242880 bytes as JSON/);
      const wide = issuesOf((b) => (b.locales.en.many = Array.from({ length: 120_000 }, () => 1)));
      expect(wide[0]).to.match(/^bundle: must hold at most 100000 values/);
      expectIssue(
        issuesOf((b) => {
          for (let i = 0; i < MAX_TEMPLATE_SECTIONS; i++) b.templates.page.sections[`extra-${i}`] = { type: 'main-page' };
        }),
        'templates.page.sections',
        /at most 25 entries/,
      );
      expectIssue(
        issuesOf((b) => (b.locales.en.a = { b: { c: { d: { e: { f: { g: 'too deep' } } } } } })),
        'locales.en.a.b.c.d.e.f',
        /nest deeper than 6 levels/,
      );
    });
  });

  describe('app blocks (docs/themes.md, App blocks)', () => {
    /** aurora with the product's main section (accepts_app_blocks) holding `block`. */
    const withAppBlock = (block: unknown) => (b: any) => {
      b.templates.product.sections.main.blocks.app = block;
      b.templates.product.sections.main.block_order.push('app');
    };
    const valid = (block: unknown) => {
      const b = loadFixture('aurora') as any;
      withAppBlock(block)(b);
      return expectOk(b);
    };

    it('takes @app and @app/<handle>/<block> blocks without a definition or block_types, normalised and valid again unchanged', () => {
      for (const type of ['@app', '@app/reviews/stars', `@app/${'a'.repeat(64)}/x-1`]) {
        const once = valid({
          type,
          settings: { heading: 'Hi', body: 'Text', cta_label: 'Go', cta_href: '/pages/x', iframe_url: 'https://apps.example.com/w', kind: 'inline' },
        }).bundle!;
        expect(once.templates.product!.sections.main!.blocks.app).to.deep.equal({
          type,
          settings: { heading: 'Hi', body: 'Text', cta_label: 'Go', cta_href: '/pages/x', iframe_url: 'https://apps.example.com/w', kind: 'inline' },
          disabled: false,
        });
        expect(expectOk(JSON.parse(JSON.stringify(once))).bundle).to.deep.equal(once);
      }
      valid({ type: '@app', settings: { cta_href: 'https://apps.example.com/go' } });
      valid({ type: '@app' });
    });

    it('checks app block settings: the known fields only, text lengths, https links and iframes, the kind, t: references', () => {
      const at = 'templates.product.sections.main.blocks.app';
      const issues = issuesOf(
        withAppBlock({
          type: '@app',
          settings: {
            heading: 't:no.such.key',
            body: 'x'.repeat(2001),
            cta_label: 5,
            cta_href: 'http://apps.example.com/',
            iframe_url: '/pages/x',
            kind: 'modal',
            script: 'x',
            $where: 'x',
          },
        }),
      );
      for (const name of ['heading', 'body', 'cta_label', 'cta_href', 'iframe_url', 'kind', 'script', '$where']) expectIssue(issues, `${at}.settings.${name}`);
      expectIssue(issuesOf(withAppBlock({ type: '@app', settings: { cta_href: '//evil.example.com' } })), `${at}.settings.cta_href`);
      expectIssue(issuesOf(withAppBlock({ type: '@app', settings: { iframe_url: 'https://u:p@apps.example.com/' } })), `${at}.settings.iframe_url`);
      expectIssue(issuesOf(withAppBlock({ type: '@app', settings: { cta_href: 'javascript:alert(1)' } })), `${at}.settings.cta_href`);
    });

    it('refuses malformed app block types, and app blocks in sections that do not accept them', () => {
      for (const type of ['@app/', '@app/reviews', '@app/Reviews/stars', '@app/reviews/stars/x', `@app/${'a'.repeat(65)}/x`, '@app/a--b/c']) {
        expectIssue(issuesOf(withAppBlock({ type })), 'templates.product.sections.main.blocks.app.type', /is not an app block type/);
      }
      const issues = issuesOf((b) => {
        b.templates.product.sections.related.blocks = { app: { type: '@app/reviews/stars', settings: { heading: 'x' } } };
      });
      expect(issues).to.deep.equal([
        'templates.product.sections.related.blocks.app.type: app blocks are only allowed in sections with accepts_app_blocks (section "featured-collection" does not accept them)',
      ]);
    });
  });

  describe('all issues in one pass', () => {
    it('reports every fault of a bundle with many', () => {
      const issues = issuesOf((b) => {
        b.package.slug = 'Aurora Theme';
        b.package.version = '1.0';
        b.package.compatibility_range = '^3.0.0';
        b.templates.home.order.push('ghost');
        b.templates.product.sections.main.block_order.push('ghost-block');
        b.sections.hero.type = 'hero-banner';
        b.blocks.text.type = 'paragraph';
        b.sections.newsletter.block_types.push('quote');
        b.templates.cart.sections.upsell.type = 'upsell';
        b.templates.home.sections.story.blocks.heading.type = 'countdown';
        b.templates.home.sections.newsletter.blocks.form.type = 'button';
        b.config.settings_schema.settings[0].settings[1].default = 'black';
        b.config.settings_data.current.unknown_setting = true;
        b.renderer.assets[2].sha256 = 'f'.repeat(64);
        delete b.locales.en.blocks.button.name;
        b.renderer.engine = 'jinja';
      });
      const paths = [
        'package.slug',
        'package.version',
        'package.compatibility_range',
        'template.order',
        'sections.main.block_order',
        'sections.hero.type',
        'blocks.text.type',
        'sections.newsletter.block_types',
        'templates.cart.sections.upsell.type',
        'templates.home.sections.story.blocks.heading.type',
        'templates.home.sections.newsletter.blocks.form.type',
        'config.settings_schema.settings.0.settings.1.default',
        'config.settings_data.current.unknown_setting',
        'renderer.assets.2.sha256',
        'blocks.button.name',
        'renderer.engine',
      ];
      for (const path of paths) expectIssue(issues, path);
      expect(issues.length).to.be.at.least(paths.length);
      expect(new Set(issues).size).to.equal(issues.length);
    });
  });

  describe('normalisation', () => {
    const minimal = () => ({
      schema_version: '2026-05-json-contract',
      package: { slug: 'plain', name: 'Plain', version: '0.1.0' },
      config: { settings_schema: { settings: [{ label: 'Colors', settings: [{ id: 'accent', type: 'color', label: 'Accent' }] }] } },
      templates: { home: { sections: { main: { type: 'intro', blocks: { a: { type: 'line' }, b: { type: 'line' } } } }, order: ['main'] } },
      sections: {
        intro: {
          type: 'intro',
          name: 'Intro',
          settings_schema: [
            {
              id: 'layout',
              type: 'select',
              label: 'Layout',
              options: [
                { value: 'wide', label: 'Wide' },
                { value: 'narrow', label: 'Narrow' },
              ],
            },
            { id: 'boxed', type: 'toggle', label: 'Boxed' },
          ],
        },
      },
      blocks: { line: { type: 'line', name: 'Line' } },
      locales: { en: {} },
      renderer: { engine: 'json-contract', renderer_version: '1.0.0' },
    });

    it('fills every default (docs/themes.md, Defaults)', () => {
      const result = expectOk(minimal());
      expect(result.bundle).to.deep.equal({
        schema_version: '2026-05-json-contract',
        package: {
          slug: 'plain',
          name: 'Plain',
          author_name: 'Anonymous',
          site_types: ['general'],
          status: 'draft',
          pricing_type: 'free',
          price: 0,
          currency: 'USD',
          version: '0.1.0',
          version_number: 1,
          release_status: 'published',
          compatibility_range: '^1.0.0',
        },
        config: {
          settings_schema: {
            schema_version: '2026-05-json-contract',
            settings: [{ label: 'Colors', description: '', settings: [{ id: 'accent', type: 'color', label: 'Accent' }] }],
          },
          settings_data: { current: {}, presets: {} },
        },
        templates: {
          home: {
            sections: {
              main: {
                type: 'intro',
                settings: {},
                blocks: { a: { type: 'line', settings: {}, disabled: false }, b: { type: 'line', settings: {}, disabled: false } },
                block_order: ['a', 'b'],
                disabled: false,
              },
            },
            order: ['main'],
          },
        },
        sections: {
          intro: {
            type: 'intro',
            name: 'Intro',
            renderer_key: 'intro',
            settings_schema: [
              {
                id: 'layout',
                type: 'select',
                label: 'Layout',
                options: [
                  { value: 'wide', label: 'Wide' },
                  { value: 'narrow', label: 'Narrow' },
                ],
                default: 'wide',
              },
              { id: 'boxed', type: 'toggle', label: 'Boxed', default: false },
            ],
            defaults: {},
            block_types: [],
            accepts_app_blocks: false,
            presets: [],
            enabled_on: ['home', 'product', 'collection', 'page', 'cart', 'blog'],
          },
        },
        blocks: { line: { type: 'line', name: 'Line', description: '', settings_schema: [], defaults: {} } },
        locales: { en: {} },
        renderer: { engine: 'json-contract', renderer_version: '1.0.0', liquid_ready: false, assets: [] },
      });
    });

    it('warns about templates a theme leaves out (the platform falls back), without failing', () => {
      const result = expectOk(minimal());
      expect(result.warnings).to.deep.equal(
        ['product', 'collection', 'page', 'cart', 'blog'].map((k) => `templates.${k}: is missing: ${k} pages use the platform's fallback template`),
      );
    });

    it('keeps order and block_order as given, and warns about what they leave out', () => {
      const b = minimal() as any;
      b.templates.home.sections.main.block_order = ['b'];
      b.templates.home.sections.extra = { type: 'intro' };
      const result = expectOk(b);
      expect(result.bundle!.templates.home!.sections.main!.block_order).to.deep.equal(['b']);
      expect(result.bundle!.templates.home!.order).to.deep.equal(['main']);
      expect(result.warnings).to.include('templates.home.sections.main.blocks.a: is not in templates.home.sections.main.block_order, so it is never rendered');
      expect(result.warnings).to.include('templates.home.sections.extra: is not in templates.home.order, so it is never rendered');
    });

    it('a liquid theme is liquid_ready by default; $schema is accepted and dropped', () => {
      const b = loadFixture('ember-liquid') as any;
      delete b.renderer.liquid_ready;
      b.$schema = 'https://emporium.example/v1/themes/bundle-schema';
      const result = expectOk(b);
      expect(result.bundle!.renderer.liquid_ready).to.equal(true);
      expect(result.bundle).to.not.have.property('$schema');
    });

    it('shares nothing with the input', () => {
      const b = loadFixture('aurora') as any;
      const result = expectOk(b);
      b.locales.en.sections.hero.name = 'changed';
      b.templates.home.order.pop();
      expect(result.bundle!.locales.en!.sections).to.have.nested.property('hero.name', 'Hero banner');
      expect(result.bundle!.templates.home!.order).to.have.length(5);
    });
  });

  describe('hostile and broken input never throws', () => {
    it('answers an issue for anything that is not a bundle object', () => {
      const cyclic: any = { a: {} };
      cyclic.a.self = cyclic;
      let deep: any = {};
      for (let i = 0; i < 100_000; i++) deep = { d: deep };
      for (const raw of [null, undefined, 42, 'bundle', [], [loadFixture('aurora')], cyclic, deep, { big: 10n }, Object.create(null), new Date()]) {
        const result = validate(raw);
        expect(result.ok).to.equal(false);
        expect(result.issues).to.not.be.empty;
      }
    });

    it('survives 400 seeded random mutations (deletions, wrong types, deep nesting, huge strings, hostile keys)', () => {
      const random = mulberry32(20260512);
      const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
      const wrong = () =>
        pick<unknown>([null, 0, -1, 1.5, 1e308, '', 'x', 't:nope', true, [], {}, [1, 'a'], { type: 'hero' }, 'x'.repeat(200_000), nested(30), '__proto__']);
      const hostileKeys = ['$where', 'a.b', 'x\u0000', '__proto__', 'constructor', 'toString', 'hasOwnProperty', ''];
      let oks = 0;
      for (let run = 0; run < 400; run++) {
        const b = loadFixture(run % 2 ? 'aurora' : 'ember-liquid');
        const mutations = 1 + Math.floor(random() * 5);
        for (let m = 0; m < mutations; m++) {
          const [parent, key] = pick(containers(b));
          const action = random();
          if (action < 0.3) {
            if (Array.isArray(parent)) parent.splice(Number(key), 1);
            else delete parent[key];
          } else if (action < 0.75) parent[key] = wrong();
          else if (!Array.isArray(parent))
            Object.defineProperty(parent, pick(hostileKeys), { value: wrong(), enumerable: true, configurable: true, writable: true });
          else parent.push(wrong());
        }
        let result;
        try {
          result = validate(b);
        } catch (error) {
          throw new Error(`run ${run} threw: ${String((error as Error).stack)}`);
        }
        expect(
          result.issues.every((i) => typeof i === 'string' && /^[^:]+: /.test(i)),
          `run ${run}: ${JSON.stringify(result.issues)}`,
        ).to.equal(true);
        expect(result.ok).to.equal(result.issues.length === 0);
        expect(result.ok ? result.bundle : undefined).to.satisfy((x: unknown) => !result.ok || x !== undefined);
        if (result.ok) oks++;
      }
      expect(oks).to.be.below(400);
    });
  });

  describe('GET /v1/themes/bundle-schema', () => {
    const { app } = useTestApp('theme-bundle');

    it('publishes the raw JSON Schema, public and cacheable, that accepts the fixtures', async () => {
      const api = client(app.url);
      const res = await api.get('/v1/themes/bundle-schema');
      expect(res.status).to.equal(200);
      expect(res.headers.get('cache-control')).to.equal('public, max-age=3600');
      expect(res.headers.get('content-type')).to.match(/^application\/schema\+json/);
      expect(res.body).to.not.have.property('data');
      expect(res.body.$id).to.equal('urn:emporium:theme-bundle:2026-05-json-contract');
      // Any JSON Schema validator can use it as published (our x-message annotation aside).
      const ajv = new Ajv({ allErrors: true, strict: false });
      const check = ajv.compile(res.body);
      expect(check(loadFixture('aurora')), JSON.stringify(check.errors)).to.equal(true);
      expect(check(loadFixture('ember-liquid')), JSON.stringify(check.errors)).to.equal(true);
      expect(check({ ...loadFixture('aurora'), schema_version: 'x' })).to.equal(false);
    });

    it('takes no query parameters and answers other methods with 405', async () => {
      const api = client(app.url);
      expect((await api.get('/v1/themes/bundle-schema?x=1')).status).to.equal(400);
      expect((await api.post('/v1/themes/bundle-schema', {})).status).to.equal(405);
    });
  });
});

/** Every (container, key) pair of a JSON value, for mutations. */
function containers(value: any, out: [any, string][] = []): [any, string][] {
  if (value === null || typeof value !== 'object') return out;
  for (const key of Object.keys(value)) {
    out.push([value, key]);
    containers(value[key], out);
  }
  return out;
}

function nested(depth: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { n: v };
  return v;
}

/** A small seeded PRNG, so a failing fuzz run can be replayed. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
