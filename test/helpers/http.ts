export type Reply<T = any> = { status: number; body: T; headers: Headers };

export type RequestOptions = { token?: string; storeId?: string; headers?: Record<string, string> };

/** A small client for the API under test: JSON in, JSON out, status and headers kept. */
export function client(baseUrl: string) {
  async function send<T = any>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...(options.headers ?? {}) };
    if (body !== undefined) headers['content-type'] ??= 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.storeId) headers['x-store-id'] = options.storeId;
    const response = await fetch(baseUrl + path, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }
  return {
    /** Where it sends (for a client of another kind, a GraphQL one, on the same server). */
    baseUrl,
    get: <T = any>(path: string, options?: RequestOptions) => send<T>('GET', path, undefined, options),
    post: <T = any>(path: string, body?: unknown, options?: RequestOptions) => send<T>('POST', path, body, options),
    patch: <T = any>(path: string, body?: unknown, options?: RequestOptions) => send<T>('PATCH', path, body, options),
    put: <T = any>(path: string, body?: unknown, options?: RequestOptions) => send<T>('PUT', path, body, options),
    delete: <T = any>(path: string, options?: RequestOptions) => send<T>('DELETE', path, undefined, options),
    send,
  };
}
export type Client = ReturnType<typeof client>;
