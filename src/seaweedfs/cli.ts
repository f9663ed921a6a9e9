import { startSeaweedfs } from './index.js';

/**
 * `npm run seaweedfs`: an S3-compatible server for `STORAGE_DRIVER=s3 npm start`, on port
 * SEAWEEDFS_S3_PORT (8333) with its data in .localdb/seaweedfs-data (kept across restarts) and
 * development credentials. Prints the variables to start the platform with; Ctrl-C stops it.
 */
try {
  const s3 = await startSeaweedfs({
    dataDir: '.localdb/seaweedfs-data',
    s3Port: Number(process.env.SEAWEEDFS_S3_PORT ?? 8333),
    bucket: 'emporium-dev',
    accessKeyId: 'emporium-dev',
    secretAccessKey: 'emporium-dev-secret',
    stopGraceMs: 60_000, // its data is kept: let it shut down in its own time
  });
  const vars = Object.entries(s3.env)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  console.log(`seaweedfs: S3 at ${s3.endpoint}, bucket ${s3.bucket}. In another terminal:\n\n  ${vars} npm start\n`);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void s3.stop().then(() => process.exit(0)));
  await new Promise<void>((done) => s3.process.once('exit', () => done()));
} catch (err) {
  console.error(`seaweedfs: ${(err as Error).message}`);
  process.exit(1);
}
