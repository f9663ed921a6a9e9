/** What the development scripts read from the API: its JSON, untyped. */
export type Json = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The development scripts' JSON client for the platform's API at `base` (the demo, the
 * screenshots): `call(method, path, body?, headers?)` answers the parsed body, and throws on
 * anything but 2xx with the method, the path and the answer (as `error(message)` makes it).
 */
export function apiClient(base: string, error: (message: string) => Error = (message) => new Error(message)) {
  return async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Json> {
    const res = await fetch(base + path, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw error(`${method} ${path}: ${res.status} ${text.slice(0, 500)}`);
    return text ? JSON.parse(text) : null;
  };
}
