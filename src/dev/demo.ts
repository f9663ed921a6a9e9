import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { styleText } from 'node:util';
import { createWebApp, openPlatform } from '../boot.js';
import { loadConfig, loadConfigOrExit } from '../config.js';
import { buildLocaldb, startLocaldb, type RunningLocaldb } from '../localdb/index.js';
import { createLog } from '../log.js';
import { DemoClock, fillDemoOrders } from './demo-orders.js';
import { DEMO_MERCHANT, DEMO_STORE, DemoError, fillDemoStore } from './demo-store.js';

/**
 * `npm run demo` (README, docs/storefront.md "A demo store"): fills the database `npm start` uses
 * with a demo merchant and store (src/dev/demo-store.ts) and its customers and orders
 * (src/dev/demo-orders.ts), then prints where to see it.
 *
 * The database: MONGODB_URL when set; else the embedded one, at LOCALDB_PORT with its data in
 * LOCALDB_DIR as `npm start` runs it: used as it is when it is running (`npm start` is up), else
 * started for the demo and stopped after. The demo talks to the platform's real HTTP API, served
 * in this process on a free port against that database, so it needs no running platform and
 * works the same with one.
 */
const started = Date.now();
const config = loadConfigOrExit();
let localdb: RunningLocaldb | null = null;
let code = 0;
try {
  let mongoUrl = config.mongo.url;
  if (!mongoUrl) {
    if (await listening(config.localdb.port)) {
      mongoUrl = `mongodb://127.0.0.1:${config.localdb.port}/`;
      console.log(`demo: using the embedded database that is running at ${mongoUrl}`);
    } else {
      buildLocaldb();
      localdb = await startLocaldb({ dataDir: config.localdb.dir, listen: `127.0.0.1:${config.localdb.port}`, stderr: 'ignore' });
      mongoUrl = localdb.url;
      console.log(`demo: started the embedded database (data in ${config.localdb.dir}) for the demo`);
    }
  }
  const appConfig = loadConfig({ ...process.env, MONGODB_URL: mongoUrl });
  // The API's own log lines stay out of the way: warnings and errors only.
  const clock = new DemoClock();
  const opened = await openPlatform(appConfig, 'demo', { log: createLog('warn', { process: 'demo' }), clock });
  const server: Server = createWebApp(opened.platform).listen(0, '127.0.0.1');
  try {
    await new Promise<void>((resolve) => server.once('listening', () => resolve()));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const summary = await fillDemoStore(base, (line) => console.log(`demo: ${line}`));
    const sales = await fillDemoOrders(opened.platform, { ...summary, clock }, (line) => console.log(`demo: ${line}`));
    const running = await listening(config.http.port);
    console.log(banner(summary.products, summary.collections, sales, running, (Date.now() - started) / 1000));
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await opened.close();
  }
} catch (err) {
  console.error(`demo: ${err instanceof DemoError ? err.message : ((err as Error).stack ?? String(err))}`);
  code = 1;
} finally {
  if (localdb) await localdb.stop();
}
process.exit(code);

/** Whether something accepts connections on 127.0.0.1 at that port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (up: boolean) => {
      socket.destroy();
      resolve(up);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

function banner(products: number, collections: string[], sales: { customers: number; orders: number }, platformRunning: boolean, seconds: number): string {
  const port = config.http.port;
  const colour = process.stdout.isTTY && process.stdout.hasColors();
  const title = `The demo store is ready (${products} products, ${collections.length} collections, ${sales.customers} customers, ${sales.orders} orders, the Aurora theme live; ${seconds.toFixed(1)} s):`;
  return [
    colour ? styleText(['bold', 'green'], title) : title,
    `  shop        http://${DEMO_STORE.subdomain}.${config.storefront.baseDomain}:${port}/`,
    `  home page   http://localhost:${port}/v1/storefront/${DEMO_STORE.subdomain}/pages/home   (the rendered page, through the API)`,
    `  products    http://localhost:${port}/v1/storefront/${DEMO_STORE.subdomain}/products`,
    `  admin       http://localhost:${port}/admin   (sign in at http://localhost:${port}/login)`,
    `  merchant    ${DEMO_MERCHANT.email} / ${DEMO_MERCHANT.password}   (POST /v1/auth/signin; the store's subdomain is "${DEMO_STORE.subdomain}")`,
    platformRunning
      ? `The platform is running on port ${port}: open the links above.`
      : 'The platform is not running: start it with `npm start` (it uses the same database), then open the links above.',
    'Run `npm run demo` again to reset the demo catalogue (the merchant, the store, its settings and orders are kept).',
  ].join('\n');
}
