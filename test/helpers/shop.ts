import { request } from 'node:http';

export type ShopResponse = { status: number; html: string; headers: Record<string, string | string[] | undefined>; location: string | null };

/**
 * One browser's view of a shop over plain HTTP: the store's host, its cookies, no redirects
 * followed; `defaults` are headers of every request (a TLS proxy's `X-Forwarded-Proto`).
 */
export class ShopBrowser {
  readonly cookies = new Map<string, string>();
  constructor(
    private readonly baseUrl: string,
    readonly host: string,
    private readonly defaults: Record<string, string> = {},
  ) {}

  /** A request to the shop's host (sent to the server's address with `Host: <host>`), cookies kept as a browser would. */
  async send(
    method: string,
    path: string,
    options: { form?: Record<string, string>; raw?: { type: string; bytes: Buffer }; headers?: Record<string, string> } = {},
  ): Promise<ShopResponse> {
    const url = new URL(this.baseUrl);
    const body = options.raw?.bytes ?? (options.form ? new URLSearchParams(options.form).toString() : undefined);
    const headers: Record<string, string> = {
      host: `${this.host}:${url.port}`,
      ...(body !== undefined
        ? { 'content-type': options.raw?.type ?? 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)) }
        : {}),
      ...(this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
      ...this.defaults,
      ...options.headers,
    };
    return new Promise((resolve, reject) => {
      const req = request({ host: url.hostname, port: url.port, path, method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          for (const line of res.headers['set-cookie'] ?? []) {
            const [pair] = line.split(';');
            const eq = pair!.indexOf('=');
            const name = pair!.slice(0, eq).trim();
            const value = pair!.slice(eq + 1).trim();
            if (value === '' || /max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
            else this.cookies.set(name, value);
          }
          resolve({
            status: res.statusCode ?? 0,
            html: Buffer.concat(chunks).toString('utf8'),
            headers: res.headers,
            location: (res.headers.location as string | undefined) ?? null,
          });
        });
      });
      req.on('error', reject);
      if (body !== undefined) req.write(body);
      req.end();
    });
  }

  get(path: string, headers: Record<string, string> = {}) {
    return this.send('GET', path, { headers });
  }

  post(path: string, form: Record<string, string>, headers: Record<string, string> = {}) {
    return this.send('POST', path, { form, headers });
  }
}

/** The `csrf_token` hidden field's value in a page, or null. */
export function csrfIn(html: string): string | null {
  return /name="csrf_token" value="([^"]+)"/.exec(html)?.[1] ?? null;
}

/** The Place order form's fields as the shipping page holds them (its hidden inputs: the CSRF token, the checkout's key). */
export function placeFields(html: string): Record<string, string> {
  const form = html.slice(html.indexOf('action="/checkout/place"'));
  return Object.fromEntries(
    [...form.slice(0, form.indexOf('</form>')).matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!]),
  );
}
