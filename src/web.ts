import { loadConfigOrExit } from './config.js';
import { createWebApp } from './boot.js';
import { startHeartbeat } from './operations/index.js';
import { onShutdownSignal, openPlatformOrExit } from './process.js';

/** The web process: the HTTP API. It enqueues jobs but runs none. */
const config = loadConfigOrExit();
const { platform, close } = await openPlatformOrExit(config, 'web');
const app = createWebApp(platform);
const server = app.listen(config.http.port, config.http.host, () => {
  platform.log.info({ event: 'web.listening', url: `http://${config.http.host}:${config.http.port}` });
});
const heartbeat = await startHeartbeat(platform, 'web');
server.on('error', (err) => {
  console.error(`emporium web: cannot listen on ${config.http.host}:${config.http.port}: ${err.message}`);
  process.exit(1);
});

onShutdownSignal(async (signal) => {
  platform.log.info({ event: 'web.stopping', signal });
  // Stop accepting; let requests in flight finish within the grace period.
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), config.jobs.shutdownGraceMs);
  await closed;
  clearTimeout(timer);
  await heartbeat.stop();
  await close();
  platform.log.info({ event: 'web.stopped' });
  return 0;
});
