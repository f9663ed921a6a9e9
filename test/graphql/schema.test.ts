import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  buildSchema,
  getNamedType,
  graphql,
  isCompositeType,
  isEnumType,
  isObjectType,
  lexicographicSortSchema,
  printSchema,
  type GraphQLNamedType,
  type GraphQLSchema,
} from 'graphql';
import { resolverTypeFiles } from '../../src/dev/graphql-types.js';
import { isConnectionType } from '../../src/graphql/cost.js';
import { adminSchema, storefrontSchema } from '../../src/graphql/index.js';
import { executableSchema } from '../../src/graphql/schema.js';
import { countsWork } from '../../src/graphql/work.js';
import { ROOT } from '../../src/localdb/index.js';

const SCHEMAS: [string, GraphQLSchema][] = [
  ['admin', adminSchema],
  ['storefront', storefrontSchema],
];

/** A type's fields (or enum values, or input fields) in their order. */
const membersOf = (type: GraphQLNamedType) =>
  isEnumType(type) ? type.getValues().map((v) => v.name) : 'getFields' in type ? Object.keys(type.getFields()) : [];

/**
 * The schemas as their domains' files build them (docs/graphql.md, Implementation): what a client
 * sees, the resolvers' generated types, and what the build enforces.
 */
describe('GraphQL schemas (src/graphql/admin/schema.ts, src/graphql/storefront/schema.ts)', () => {
  for (const [name, schema] of SCHEMAS) {
    describe(`the ${name} schema`, () => {
      // fixtures/graphql/<name>.graphql is the schema printed before it was split by domain (issue 37).
      const before = buildSchema(readFileSync(join(ROOT, 'fixtures', 'graphql', `${name}.graphql`), 'utf8'));

      it('prints as before: the same types, fields, arguments, enum values and descriptions', () => {
        expect(printSchema(lexicographicSortSchema(schema))).to.equal(printSchema(lexicographicSortSchema(before)));
      });

      it("keeps each type's fields in their order; only the root types list their fields by domain", () => {
        const roots = new Set([before.getQueryType()?.name, before.getMutationType()?.name]);
        for (const type of Object.values(before.getTypeMap()).filter((t) => !t.name.startsWith('__') && !roots.has(t.name)))
          expect(membersOf(schema.getType(type.name)!), type.name).to.deep.equal(membersOf(type));
      });

      it('counts the work of every composite field (work.ts wraps each resolver the build set, or the default one)', () => {
        const uncounted: string[] = [];
        for (const type of Object.values(schema.getTypeMap()).filter((t) => isObjectType(t) && !t.name.startsWith('__')))
          for (const field of Object.values(isObjectType(type) ? type.getFields() : {})) {
            const skipped = field.name === 'pageInfo' || (isConnectionType(type) && field.name === 'edges');
            if (isCompositeType(getNamedType(field.type)) && !skipped && !countsWork(field.resolve)) uncounted.push(`${type.name}.${field.name}`);
          }
        expect(uncounted).to.deep.equal([]);
      });
    });
  }

  it('has committed resolver types that are what `npm run graphql:types` generates from the schemas now', async () => {
    for (const { path, text } of await resolverTypeFiles())
      expect(readFileSync(join(ROOT, path), 'utf8') === text, `${path} is stale: run npm run graphql:types and commit it`).to.equal(true);
  });

  it('refuses at start-up a resolver of a type or a field the SDL does not have', () => {
    const typeDefs = ['type QueryRoot { shop: String }', 'schema { query: QueryRoot }'];
    expect(() => executableSchema(typeDefs, [{ QueryRoot: { shop: () => 'x' } }])).not.to.throw();
    expect(() => executableSchema(typeDefs, [{ QueryRoot: { shops: () => 'x' } }])).to.throw(/QueryRoot\.shops defined in resolvers, but not in schema/);
    expect(() => executableSchema(typeDefs, [{ Shop: { name: () => 'x' } }])).to.throw(/"Shop" defined in resolvers, but not in schema/);
  });

  it('answers the output scalars as strings and takes none as input', async () => {
    const schema = executableSchema(
      ['scalar DateTime type QueryRoot { at(since: DateTime): DateTime } schema { query: QueryRoot }'],
      [{ QueryRoot: { at: () => 'now' } }],
    );
    expect((await graphql({ schema, source: '{ at }' })).data).to.deep.equal({ at: 'now' });
    const refused = await graphql({ schema, source: '{ at(since: "2026-01-01") }' });
    expect(refused.errors?.[0]?.message).to.match(/DateTime is not taken as input/);
  });
});
