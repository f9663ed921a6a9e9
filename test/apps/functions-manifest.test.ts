import { expect } from 'chai';
import { ObjectId } from 'mongodb';
import { useTestApp } from '../helpers/app.js';
import { givenDeveloper, givenSubmittedApp, validManifest, type GivenDeveloper } from '../helpers/apps.js';

const VALIDATE = '/v1/app-store/developers/apps/manifest/validate';

/** A checkout_function extension with `config`. */
const fn = (config: unknown, handle = 'advice', target = 'shipping') => ({ kind: 'checkout_function', handle, name: 'Advice', target, config });
const HIDE_EXPRESS = {
  eachKey: { operations: { if: [{ '==': [{ var: 'cart.shipping_address.country' }, 'CA'] }, { preserve: [{ hide: 'express' }] }, null] } },
};
/** `!` nested `levels` deep in its unary form: one level of nesting each. */
const nested = (levels: number): unknown => (levels === 1 ? { '!': true } : { '!': nested(levels - 1) });

describe('App manifests: a checkout_function’s config (docs/extensions.md, Checkout Functions)', () => {
  const { app, api } = useTestApp('app-functions-manifest');
  let dev: GivenDeveloper;
  before(async () => {
    dev = await givenDeveloper(api);
  });

  const validate = async (extensions: unknown[]) => {
    const res = await api.post(VALIDATE, { manifest: validManifest({ extensions }) }, { token: dev.merchant.token });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data as { ok: boolean; manifest?: Record<string, any>; issues: string[] };
  };
  const issuesOf = async (extensions: unknown[]) => {
    const result = await validate(extensions);
    expect(result.ok, JSON.stringify(result)).to.equal(false);
    return result.issues;
  };

  it('accepts a program with settings defaults, and keeps the config as given', async () => {
    const config = { program: HIDE_EXPRESS, settings: { home_country: 'CA', free_over: 5000, hide_express: true } };
    const result = await validate([fn(config)]);
    expect(result.ok, JSON.stringify(result.issues)).to.equal(true);
    expect(result.manifest!.extensions[0].config).to.deep.equal(config);
  });

  it('requires a config with a program, and nothing but program and settings', async () => {
    expect(
      await issuesOf([
        { kind: 'checkout_function', handle: 'a', name: 'A', target: 'coupon' },
        fn({}, 'b'),
        fn({ program: {}, blocking: true, code: 'x' }, 'c'),
      ]),
    ).to.deep.equal([
      'extensions.0.config: is required: a checkout_function runs the program its config holds ({"program": …})',
      'extensions.1.config.program: is required',
      'extensions.2.config.blocking: is not a known field (a checkout_function config has program and settings)',
      'extensions.2.config.code: is not a known field (a checkout_function config has program and settings)',
    ]);
  });

  it('reports each problem of a program at its path', async () => {
    const issues = await issuesOf([
      { kind: 'admin_ui', handle: 'panel', name: 'Panel', target: 'admin.order.details' },
      fn({ program: { preserve: {} } }, 'fine'),
      fn({ program: { if: [true, { eval: 'process.exit(1)' }, { var: 'cart.__proto__.polluted' }] } }, 'eval'),
      fn({ program: { in: [{ var: 'code' }, ['express', 'pickup']] } }, 'nested-list'),
      fn({ program: { eachKey: { operations: { preserve: [] } }, if: [] } }, 'two-keys'),
      fn({ program: { missing_some: [1, { preserve: ['a', 'constructor'] }] } }, 'missing'),
      fn({ program: { eachKey: [] } }, 'each-key'),
    ]);
    expect(issues).to.deep.equal([
      'extensions.2.config.program.if.1: unknown operator "eval"',
      'extensions.2.config.program.if.2.var: a data path must not name "__proto__"',
      'extensions.3.config.program.in.1: a list directly inside a list cannot be stored: write the inner list as {"preserve": [...]}',
      'extensions.4.config.program: must be one operator, an object with exactly one key (it has 2); write an object as {"eachKey": {...}} or {"preserve": {...}}',
      'extensions.5.config.program.missing_some.1.preserve.1: a data path must not name "constructor"',
      'extensions.6.config.program.eachKey: must be an object of keys and the programs that give their values',
    ]);
  });

  it('takes a program of at most 500 values nested at most 32 deep', async () => {
    expect((await validate([fn({ program: nested(32) })])).ok).to.equal(true);
    expect(await issuesOf([fn({ program: nested(33) })])).to.deep.equal([`extensions.0.config.program${'.!'.repeat(32)}: nests deeper than 32 levels`]);
    expect((await validate([fn({ program: { merge: Array.from({ length: 498 }, (_, i) => i) } })])).ok).to.equal(true);
    expect(await issuesOf([fn({ program: { merge: Array.from({ length: 499 }, (_, i) => i) } })])).to.deep.equal([
      'extensions.0.config.program: has more than 500 values (objects, lists and the values in them)',
    ]);
  });

  it('stores a program as deep as allowed, and serves it back as it was', async () => {
    const config = { program: { eachKey: { errors: { if: [nested(28), { preserve: [{ message: 'Never' }] }, { preserve: [] }] } } }, settings: { limit: 3 } };
    const submitted = await givenSubmittedApp(api, { extensions: [fn(config, 'deep', 'validation')] });
    const stored = await app.platform.db.collection('app_versions').findOne({ _id: new ObjectId(submitted.app.latest_version.id as string) });
    expect(stored!.manifest.extensions[0].config).to.deep.equal(config);
  });

  it('settings: at most 20 named strings, numbers or booleans', async () => {
    const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`s${i}`, i]));
    const issues = await issuesOf([
      fn({ program: {}, settings: [] }, 'a'),
      fn({ program: {}, settings: many }, 'b'),
      fn({ program: {}, settings: { Country: 'CA', list: ['a'], nothing: null, note: 'x'.repeat(501), deep: { a: 1 }, ok_1: false } }, 'c'),
    ]);
    expect(issues).to.deep.equal([
      'extensions.0.config.settings: must be an object of setting names and their defaults',
      'extensions.1.config.settings: must have at most 20 settings',
      'extensions.2.config.settings.Country: must be a setting name: a lowercase letter, then lowercase letters, digits or "_", at most 40 characters',
      'extensions.2.config.settings.list: must be a string, a number or true or false',
      'extensions.2.config.settings.nothing: must be a string, a number or true or false',
      'extensions.2.config.settings.note: must be at most 500 characters',
      'extensions.2.config.settings.deep: must be a string, a number or true or false',
    ]);
  });

  it('still bounds the config at 8 KiB, program included', async () => {
    const issues = await issuesOf([fn({ program: { cat: ['x'.repeat(8200)] } })]);
    expect(issues).to.have.length(1);
    expect(issues[0]).to.match(/^extensions\.0\.config: must be at most 8192 bytes as JSON \(it is \d+\)$/);
  });
});
