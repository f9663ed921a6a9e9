import { parse as parseJsonText } from '@hapi/bourne';
import { koaBody } from 'koa-body';
import type { Middleware } from 'koa';
import { PlatformError } from '../errors.js';
import type { AppContext, AppCustom, AppState } from './context.js';

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const JSON_TYPES = ['application/json', 'application/*+json'];

/**
 * How deep a request body may nest objects and arrays (docs/conventions.md, Bodies). Deeper is
 * 400 `body_too_deep`, decided on the raw text before anything parses or walks it: code that
 * recurses over a body (JSON.stringify, schema validation, the driver's serialiser) then never
 * meets more than this many levels.
 */
export const MAX_BODY_DEPTH = 64;

const tooDeep = () => new PlatformError('invalid_data', 'body_too_deep', `The request body nests objects or arrays deeper than ${MAX_BODY_DEPTH} levels`);
const invalidJson = () => new PlatformError('invalid_data', 'invalid_json', 'The request body is not valid JSON (an object or array is expected)');

/**
 * Whether JSON text opens more than `max` objects and arrays inside one another: one pass over
 * the characters, counting brackets outside strings (no recursion, no parse, no allocation).
 * Unbalanced text is left for the parser to refuse.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character (\" stays in the string)
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

/**
 * A JSON body's text as the routes see it: empty is `{}`; otherwise an object or array, nested
 * at most MAX_BODY_DEPTH deep (checked first), without `__proto__` keys (refused, as co-body
 * refused them before: @hapi/bourne), else 400.
 */
export function parseJsonBody(text: string): unknown {
  if (text === '') return {};
  if (!/^[ \t\n\r]*[[{]/.test(text)) throw invalidJson(); // RFC 8259 whitespace, then an object or array
  if (nestsDeeperThan(text, MAX_BODY_DEPTH)) throw tooDeep();
  try {
    return parseJsonText(text, { protoAction: 'error' });
  } catch {
    throw invalidJson();
  }
}

/** What the routes declare about their bodies (see http/endpoint.ts), each asked of a request. */
export type BodyRules = {
  takesMultipart?: (ctx: AppContext) => boolean;
  takesForm?: (ctx: AppContext) => boolean;
  readsOwnForm?: (ctx: AppContext) => boolean;
  routeLimit?: (ctx: AppContext) => number | null;
};

/**
 * JSON bodies only, with a size limit. A body of another media type is a 415 before any byte
 * is read; a body over the limit (declared or streamed) is a 413; malformed JSON, or JSON
 * that is not an object or array, is a 400, and so is one nested deeper than MAX_BODY_DEPTH
 * (`body_too_deep`, found in the text before it is parsed). A `multipart/form-data` request for an endpoint
 * that declares it takes one (`takesMultipart`, see http/endpoint.ts) is left unread here for
 * the endpoint to read (readMultipart), after its access check; so is any body of a page's form
 * post (`readsOwnForm`), which the page reads and refuses as an HTML page.
 */
export function jsonBody(limitBytes: number, rules: BodyRules = {}): Middleware<AppState, AppCustom>[] {
  const { takesMultipart = () => false, takesForm = () => false, readsOwnForm = () => false, routeLimit = () => null } = rules;
  // `application/x-www-form-urlencoded`, only for a route that declares it takes it (the OAuth
  // token endpoints, RFC 6749 4.1.3): parsed into a plain object of strings, same size limit.
  // Bracketed and dotted keys (`a[b][c]`, `a.b`) nest: qs refuses more than MAX_BODY_DEPTH levels
  // (strictDepth) instead of folding the rest into one key.
  const parseForm = koaBody({
    json: false,
    urlencoded: true,
    text: false,
    multipart: false,
    formLimit: limitBytes,
    queryString: { depth: MAX_BODY_DEPTH, strictDepth: true },
    parsedMethods: ['POST'] as never,
    onError(err) {
      const status = (err as { status?: number }).status;
      if (status === 413) throw new PlatformError('payload_too_large', 'payload_too_large', `The request body is larger than ${limitBytes} bytes`);
      if (err instanceof RangeError) throw tooDeep();
      throw new PlatformError('invalid_data', 'invalid_form', 'The request body is not a valid form (application/x-www-form-urlencoded)');
    },
  }) as Middleware<AppState, AppCustom>;
  const requireJson: Middleware<AppState, AppCustom> = async (ctx, next) => {
    if (ctx.is('multipart/form-data') === 'multipart/form-data' && takesMultipart(ctx)) return next();
    if (readsOwnForm(ctx)) {
      (ctx.state as { ownBody?: true }).ownBody = true;
      return next();
    }
    const limit = routeLimit(ctx) ?? limitBytes;
    (ctx.state as { bodyLimit?: number }).bodyLimit = limit;
    if (ctx.method === 'POST' && ctx.is('application/x-www-form-urlencoded') === 'application/x-www-form-urlencoded' && takesForm(ctx)) {
      (ctx.state as { formBody?: true }).formBody = true;
      return parseForm(ctx, next);
    }
    if (WITH_BODY.has(ctx.method) && hasBody(ctx.req.headers) && !ctx.is(JSON_TYPES)) {
      throw new PlatformError('unsupported_media_type', 'unsupported_media_type', 'The request body must be application/json');
    }
    const declared = Number(ctx.get('Content-Length'));
    if (Number.isFinite(declared) && declared > limit) {
      throw new PlatformError('payload_too_large', 'payload_too_large', `The request body is larger than ${limit} bytes`);
    }
    await next();
  };
  // koa-body reads a JSON body as text (inflated, within the limit); parseJsonBody parses it.
  const jsonReader = (limit: number) =>
    koaBody({
      json: false,
      urlencoded: false,
      text: true,
      textLimit: limit,
      textTypes: JSON_TYPES,
      multipart: false,
      parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'] as never,
      onError(err) {
        const status = (err as { status?: number }).status;
        if (status === 413) throw new PlatformError('payload_too_large', 'payload_too_large', `The request body is larger than ${limit} bytes`);
        if (status === 415) throw new PlatformError('unsupported_media_type', 'unsupported_media_type', 'The request body must be application/json');
        throw invalidJson();
      },
    }) as Middleware<AppState, AppCustom>;
  // One reader per limit in use (the default, and the few routes that declare a larger one).
  const readers = new Map<number, Middleware<AppState, AppCustom>>();
  const readerFor = (limit: number) => {
    let reader = readers.get(limit);
    if (!reader) readers.set(limit, (reader = jsonReader(limit)));
    return reader;
  };
  const parseJson: Middleware<AppState, AppCustom> = (ctx, next) => {
    const state = ctx.state as { formBody?: true; ownBody?: true };
    if (state.formBody || state.ownBody) return next();
    return readerFor((ctx.state as { bodyLimit?: number }).bodyLimit ?? limitBytes)(ctx, () => {
      const text: unknown = ctx.request.body;
      if (typeof text === 'string') ctx.request.body = parseJsonBody(text) as typeof ctx.request.body;
      return next();
    });
  };
  return [requireJson, parseJson];
}

function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}
