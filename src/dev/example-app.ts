import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The example app page of docs/app-bridge.md (its "The example app" section's html block),
 * exactly as a partner would copy it: what the embedded host's browser test and the admin's
 * screenshots serve as a partner's app.
 */
export function exampleAppPage(): string {
  const doc = readFileSync(new URL('../../../docs/app-bridge.md', import.meta.url), 'utf8');
  const section = doc.slice(doc.indexOf('## The example app'));
  const block = /```html\n([\s\S]*?)\n```/.exec(section);
  if (!block) throw new Error('docs/app-bridge.md has no example app page');
  return block[1]!;
}

/** A local HTTP server on `host` answering every GET with `page`: a partner's app (or another site) on an origin of its own. */
export async function servePage(host: string, page: string): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    res.writeHead(req.method === 'GET' ? 200 : 405, { 'content-type': 'text/html; charset=utf-8' });
    res.end(req.method === 'GET' ? page : '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://${host}:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
