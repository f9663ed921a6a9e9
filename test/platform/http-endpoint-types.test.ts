import { expect } from 'chai';
import { z } from 'zod';
import { routes } from '../../src/http/endpoint.js';
import type { PathParams } from '../../src/http/path-params.js';
import type { Platform } from '../../src/platform.js';

/** Compiles only when `A` and `B` are the same type. */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(proof: Same<A, B>) => expect(proof).to.equal(true);

describe('endpoint types (routes())', () => {
  it('reads the parameters a route path names, wildcards and optional groups included', () => {
    same<PathParams<'/'>, Record<never, never>>(true);
    same<PathParams<'/:id'>, { id: string }>(true);
    same<PathParams<'/:id/items/:item_id'>, { id: string; item_id: string }>(true);
    same<PathParams<'/:id/addresses/:addressId/default'>, { id: string; addressId: string }>(true);
    same<PathParams<'/:version/{*path}'>, { version: string; path?: string }>(true);
    same<PathParams<'/files/*key'>, { key: string }>(true);
    same<PathParams<'/:from-:to'>, { from: string; to: string }>(true);
    same<PathParams<'/\\:literal/:id'>, { id: string }>(true);
  });

  it("types an endpoint's params from its route's path, and refuses a parameter the path does not name", async () => {
    const on = routes({} as Platform);
    const seen: string[] = [];
    on.get('/:id/items/:item_id', { access: 'public' }, async ({ params }) => {
      same<typeof params, { id: string; item_id: string }>(true);
      seen.push(`${params.id}/${params.item_id}`);
      return null;
    });
    // @ts-expect-error the path names no item_id
    on.get('/:id', { access: 'public' }, async ({ params }) => params.item_id);
    // A params schema types them instead (a parameter of the path the router is mounted at).
    on.get('/', { access: 'public', params: z.object({ subdomain: z.string() }) }, async ({ params }) => {
      same<typeof params, { subdomain: string }>(true);
      return params.subdomain;
    });

    const layer = on.router.stack.find((l) => l.path === '/:id/items/:item_id')!;
    const ctx = { params: { id: 'a', item_id: 'b' }, query: {}, request: { body: undefined }, state: {}, status: 404, body: undefined };
    await layer.stack[0]!(ctx as never, async () => {});
    expect(seen).to.deep.equal(['a/b']);
    expect(ctx.body).to.deep.equal({ data: null });
  });

  it('takes the store from the body only when the body names one (store_id)', () => {
    const on = routes({} as Platform);
    on.post(
      '/',
      { access: { storeFrom: 'body' }, body: z.strictObject({ store_id: z.string() }) },
      async ({ merchant, store }) => `${merchant.merchantId} ${store.subdomain}`,
    );
    // @ts-expect-error a body without store_id names no store
    on.post('/', { access: { storeFrom: 'body' }, body: z.strictObject({ name: z.string() }) }, async () => null);
  });
});
