import { koaBody } from 'koa-body';
import type { Middleware } from 'koa';
import { PlatformError } from '../errors.js';
import type { AppContext, AppCustom, AppState } from './context.js';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * JSON bodies only, with a size limit. A body of another media type is a 415 before any byte
 * is read; a body over the limit (declared or streamed) is a 413; malformed JSON, or JSON
 * that is not an object or array, is a 400. A `multipart/form-data` request for an endpoint
 * that declares it takes one (`takesMultipart`, see http/endpoint.ts) is left unread here for
 * the endpoint to read (readMultipart), after its access check.
 */
export function jsonBody(
  limitBytes: number,
  takesMultipart: (ctx: AppContext) => boolean = () => false,
  takesForm: (ctx: AppContext) => boolean = () => false,
  routeLimit: (ctx: AppContext) => number | null = () => null,
): Middleware<AppState, AppCustom>[] {
  // `application/x-www-form-urlencoded`, only for a route that declares it takes it (the OAuth
  // token endpoints, RFC 6749 4.1.3): parsed into a plain object of strings, same size limit.
  const parseForm = koaBody({
    json: false,
    urlencoded: true,
    text: false,
    multipart: false,
    formLimit: limitBytes,
    parsedMethods: ['POST'] as never,
    onError(err) {
      const status = (err as { status?: number }).status;
      if (status === 413) throw new PlatformError('payload_too_large', 'payload_too_large', `The request body is larger than ${limitBytes} bytes`);
      throw new PlatformError('invalid_data', 'invalid_form', 'The request body is not a valid form (application/x-www-form-urlencoded)');
    },
  }) as Middleware<AppState, AppCustom>;
  const requireJson: Middleware<AppState, AppCustom> = async (ctx, next) => {
    if (ctx.is('multipart/form-data') === 'multipart/form-data' && takesMultipart(ctx)) return next();
    const limit = routeLimit(ctx) ?? limitBytes;
    (ctx.state as { bodyLimit?: number }).bodyLimit = limit;
    if (ctx.method === 'POST' && ctx.is('application/x-www-form-urlencoded') === 'application/x-www-form-urlencoded' && takesForm(ctx)) {
      (ctx.state as { formBody?: true }).formBody = true;
      return parseForm(ctx, next);
    }
    if (WITH_BODY.has(ctx.method) && hasBody(ctx.req.headers) && !ctx.is('application/json', 'application/*+json')) {
      throw new PlatformError('unsupported_media_type', 'unsupported_media_type', 'The request body must be application/json');
    }
    const declared = Number(ctx.get('Content-Length'));
    if (Number.isFinite(declared) && declared > limit) {
      throw new PlatformError('payload_too_large', 'payload_too_large', `The request body is larger than ${limit} bytes`);
    }
    await next();
  };
  const jsonParser = (limit: number) => koaBody({
    json: true,
    jsonStrict: true,
    jsonLimit: limit,
    urlencoded: false,
    text: false,
    multipart: false,
    jsonTypes: ['application/json', 'application/*+json'],
    parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'] as never,
    onError(err) {
      const status = (err as { status?: number }).status;
      if (status === 413) throw new PlatformError('payload_too_large', 'payload_too_large', `The request body is larger than ${limit} bytes`);
      if (status === 415) throw new PlatformError('unsupported_media_type', 'unsupported_media_type', 'The request body must be application/json');
      throw new PlatformError('invalid_data', 'invalid_json', 'The request body is not valid JSON (an object or array is expected)');
    },
  });
  // One parser per limit in use (the default, and the few routes that declare a larger one).
  const parsers = new Map<number, Middleware<AppState, AppCustom>>();
  const parserFor = (limit: number) => {
    let parser = parsers.get(limit);
    if (!parser) parsers.set(limit, (parser = jsonParser(limit) as Middleware<AppState, AppCustom>));
    return parser;
  };
  const parseJson: Middleware<AppState, AppCustom> = (ctx, next) =>
    (ctx.state as { formBody?: true }).formBody ? next() : parserFor((ctx.state as { bodyLimit?: number }).bodyLimit ?? limitBytes)(ctx, next);
  return [requireJson, parseJson];
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}
