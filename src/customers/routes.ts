import type Router from '@koa/router';
import { z } from 'zod';
import type { AppState } from '../http/context.js';
import { idempotent } from '../http/idempotency.js';
import { storeScopedRouter } from '../http/scoped.js';
import { parseInput } from '../http/validate.js';
import { PageQuery } from '../pagination.js';
import type { Platform } from '../platform.js';
import { createAddress, deleteAddress, getAddress, listAddresses, makeDefaultAddress, updateAddress } from './addresses.js';
import { CreateAddressBody, CreateCustomerBody, ListCustomersQuery, UpdateAddressBody, UpdateCustomerBody } from './schemas.js';
import { createCustomer, getCustomer, listCustomers, updateCustomer } from './service.js';

const NoQuery = z.strictObject({});
const NoBody = z.strictObject({});
const ListQuery = PageQuery.strict();

/** /v1/customers: the customers of the X-Store-Id store, and their addresses. */
export function customerRoutes(platform: Platform): Router<AppState> {
  const router = storeScopedRouter(platform);

  router.get('/', async (ctx) => {
    const query = parseInput(ListCustomersQuery, ctx.query, 'query');
    const { items, nextCursor } = await listCustomers(platform, ctx.state.store!.id, query);
    ctx.body = { data: items, page: { next_cursor: nextCursor } };
  });

  router.post('/', idempotent(platform), async (ctx) => {
    const body = parseInput(CreateCustomerBody, ctx.request.body, 'body');
    ctx.status = 201;
    ctx.body = { data: await createCustomer(platform, ctx.state.store!, body) };
  });

  router.get('/:id', async (ctx) => {
    parseInput(NoQuery, ctx.query, 'query');
    ctx.body = { data: await getCustomer(platform, ctx.state.store!.id, ctx.params.id!) };
  });

  router.patch('/:id', async (ctx) => {
    const body = parseInput(UpdateCustomerBody, ctx.request.body, 'body');
    ctx.body = { data: await updateCustomer(platform, ctx.state.store!.id, ctx.params.id!, body) };
  });

  router.get('/:id/addresses', async (ctx) => {
    const page = parseInput(ListQuery, ctx.query, 'query');
    const { items, nextCursor } = await listAddresses(platform, ctx.state.store!.id, ctx.params.id!, page);
    ctx.body = { data: items, page: { next_cursor: nextCursor } };
  });

  router.post('/:id/addresses', idempotent(platform), async (ctx) => {
    const body = parseInput(CreateAddressBody, ctx.request.body, 'body');
    ctx.status = 201;
    ctx.body = { data: await createAddress(platform, ctx.state.store!.id, ctx.params.id!, body) };
  });

  router.get('/:id/addresses/:addressId', async (ctx) => {
    parseInput(NoQuery, ctx.query, 'query');
    ctx.body = { data: await getAddress(platform, ctx.state.store!.id, ctx.params.id!, ctx.params.addressId!) };
  });

  router.patch('/:id/addresses/:addressId', async (ctx) => {
    const body = parseInput(UpdateAddressBody, ctx.request.body, 'body');
    ctx.body = { data: await updateAddress(platform, ctx.state.store!.id, ctx.params.id!, ctx.params.addressId!, body) };
  });

  router.delete('/:id/addresses/:addressId', async (ctx) => {
    parseInput(NoBody, ctx.request.body, 'body');
    await deleteAddress(platform, ctx.state.store!.id, ctx.params.id!, ctx.params.addressId!);
    ctx.status = 204;
  });

  router.post('/:id/addresses/:addressId/default', async (ctx) => {
    parseInput(NoBody, ctx.request.body, 'body');
    ctx.body = { data: await makeDefaultAddress(platform, ctx.state.store!.id, ctx.params.id!, ctx.params.addressId!) };
  });

  return router;
}
