import { z } from 'zod';
import { isLoopbackHost, MailFrom, SmtpUrl } from './mail-config.js';

/**
 * The one place that reads the environment. `ConfigSchema` declares each variable once (its
 * bounds, its default, what it is for) and turns the variables into the nested, frozen `Config`
 * every process reads; its type is the schema's output. Every process parses it once at start-up;
 * an invalid environment lists every problem and the process exits 1. README.md's Configuration
 * table lists the same variables (test/platform/config.test.ts holds them to it).
 */

const DEV_SECRETS_KEY = 'dev:ZW1wb3JpdW0tZGV2ZWxvcG1lbnQta2V5LW5vdC1zZWNyZXQ'; // public; development and test only
const DEV_INTERNAL_SECRET = 'emporium-development-internal-secret-not-secret'; // public; development only

/** The development key's bytes, as SECRETS_KEYS would hold them: staging and production refuse it under any id. */
const DEV_SECRETS_KEY_BYTES = Buffer.from(DEV_SECRETS_KEY.split(':')[1]!, 'base64url').subarray(0, 32);

const int = (def: number, min = 0, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max).default(def);
const port = (def: number, min = 1) => int(def, min, 65535);
/** Points a second: a positive number, fractions allowed (0.5 is one point every two seconds). */
const rate = (def: number) => z.coerce.number().positive().max(1_000_000).default(def);
const capacity = (def: number) => int(def, 1, 1_000_000_000);
const bool = (def: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(def ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1');
const httpUrl = () => z.url({ protocol: /^https?$/ });
/** A comma-separated list, each entry trimmed and lower-cased; unset: empty. */
const lowerCaseList = () =>
  z
    .string()
    .default('')
    .transform((raw): readonly string[] =>
      raw
        .split(',')
        .map((entry) => entry.trim().toLowerCase())
        .filter(Boolean),
    );
const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');

const SecretsKeys = z.string().transform((raw, ctx): readonly { id: string; key: Buffer }[] => {
  const keys: { id: string; key: Buffer }[] = [];
  for (const part of raw
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [id, b64] = part.split(':');
    const key = b64 ? Buffer.from(b64, 'base64url') : Buffer.alloc(0);
    if (!id || !/^[A-Za-z0-9_-]{1,32}$/.test(id) || key.length < 32) {
      ctx.addIssue({ code: 'custom', message: 'each entry must be <id>:<base64url key of at least 32 bytes>' });
      return z.NEVER;
    }
    keys.push({ id, key: key.subarray(0, 32) });
  }
  if (keys.length === 0) {
    ctx.addIssue({ code: 'custom', message: 'at least one key is required' });
    return z.NEVER;
  }
  return keys;
});

/** Every variable, once; the order is `Config`'s. README.md's Configuration table says more of each. */
const Variables = z.object({
  APP_ENV: z.enum(['development', 'test', 'staging', 'production']).default('development'),

  // http: where the web process listens and what one request may take.
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port(3000, 0),
  /** Take the client address from X-Forwarded-For (behind proxies of ours). */
  TRUST_PROXY: bool(false),
  /** How many proxies of ours append to X-Forwarded-For: the client is that many entries from the right. */
  TRUST_PROXY_HOPS: int(1, 1, 10),
  BODY_LIMIT_BYTES: int(1024 * 1024, 1024),
  /** The store-scoped REST admin API's leaky bucket per (store, caller): points it holds, points restored a second; a request costs 1. */
  ADMIN_API_BUCKET_CAPACITY: capacity(10_000),
  ADMIN_API_RESTORE_RATE: rate(667),
  /** The admin GraphQL API's leaky bucket per (store, caller), of query cost points. */
  GRAPHQL_BUCKET_CAPACITY: capacity(1000),
  GRAPHQL_RESTORE_RATE: rate(50),
  /** The storefront GraphQL API's buckets (docs/graphql.md, Throttling): per client address in a store, and per store (all its clients). */
  STOREFRONT_GRAPHQL_CLIENT_CAPACITY: capacity(1000),
  STOREFRONT_GRAPHQL_CLIENT_RESTORE_RATE: rate(50),
  STOREFRONT_GRAPHQL_STORE_CAPACITY: capacity(20_000),
  STOREFRONT_GRAPHQL_STORE_RESTORE_RATE: rate(1000),
  /** Replaced by the leaky bucket's figures above: set, they are refused rather than ignored. */
  ADMIN_API_RATE_LIMIT: z.string().optional(),
  ADMIN_API_RATE_WINDOW_SECONDS: z.string().optional(),

  /** How long an Idempotency-Key claim lasts unless its request renews it (every third of it while it runs). */
  IDEMPOTENCY_LOCK_MS: int(60_000, 300),

  /** Unset: the embedded database (npm start); required in staging and production. */
  MONGODB_URL: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\/.+/, 'must be a mongodb:// or mongodb+srv:// URL')
    .optional(),
  MONGODB_DB: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,63}$/, 'must be a database name (letters, digits, _ and -)')
    .default('emporium'),
  /** How long a process waits for the database at start before exiting 1. */
  MONGODB_CONNECT_TIMEOUT_MS: int(5000, 100),

  /** Unset: info (warn in test). */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  /** Unset: JSON, or pretty in development when stdout is a terminal (`chooseLogFormat` in src/log.ts). */
  LOG_FORMAT: z.enum(['json', 'pretty']).optional(),

  /** `id:key,...`: the first key encrypts, every key decrypts (rotation). Unset: the public development key, refused in staging and production. */
  SECRETS_KEYS: SecretsKeys.optional(),

  JOBS_POLL_INTERVAL_MS: int(2000, 50),
  /** How long SIGTERM waits for running jobs and requests. */
  WORKER_SHUTDOWN_GRACE_MS: int(25_000),
  MAINTENANCE_SWEEP_INTERVAL_MS: int(5 * 60_000, 500),

  /** How old an event left pending on a document (or a delete intent) must be before the sweep records it. */
  EVENT_SETTLE_AFTER_MS: int(60_000),

  /** The HTTP relay that sends merchants' email; unset: the development outbox. */
  MESSAGE_RELAY_URL: httpUrl().optional(),
  MESSAGE_RELAY_TOKEN: z.string().min(16).optional(),
  /** The SMTP server email goes out through (docs/mail.md); set, it is used before the relay. MAIL_FROM: the platform's sender. */
  SMTP_URL: SmtpUrl.optional(),
  MAIL_FROM: MailFrom.optional(),
  /** How long a worker holds a message it sends (src/work/lease.ts): a dead worker's message is sent again after this. */
  MESSAGES_LEASE_MS: int(60_000, 200),
  /** A failed message is tried again after min(this × 2^(n-1), 30 min); the tests shorten it. */
  MESSAGES_RETRY_BASE_MS: int(30_000, 100),

  /** The embedded database of npm start. */
  LOCALDB_PORT: port(27018),
  LOCALDB_DIR: z.string().min(1).default('.localdb/data'),

  /** Object storage: files under a local folder (served by signed URLs of the web process), or an S3-compatible bucket. */
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  STORAGE_LOCAL_DIR: z.string().min(1).default('.localdb/storage'),
  /** Where clients reach the web process (signed local URLs and the links in emails start with it), and the OAuth issuer. Unset: http://127.0.0.1:<PORT>, and the request's own origin. */
  PUBLIC_BASE_URL: httpUrl().optional(),
  S3_ENDPOINT: httpUrl().optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{1,32}$/, 'must be a region name such as us-east-1')
    .optional(),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name')
    .optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: bool(false),
  MEDIA_MAX_BYTES: int(10 * 1024 * 1024, 1),

  // apps: the app platform (docs/apps.md, docs/oauth.md).
  /** Merchant accounts (by email) that have the operator role. */
  OPERATOR_EMAILS: lowerCaseList(),
  OAUTH_CODE_TTL_SECONDS: int(60, 5, 120),
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: int(3600, 60, 24 * 3600),
  OAUTH_REFRESH_TOKEN_TTL_SECONDS: int(90 * 24 * 3600, 3600),
  OAUTH_REFRESH_REUSE_GRACE_SECONDS: int(30, 0, 300),
  SESSION_TOKEN_TTL_SECONDS: int(60, 10, 600),
  /** Requests per minute to authorize and the token endpoints, per client and per merchant. */
  OAUTH_RATE_LIMIT: int(60, 1),
  /** How long after an uninstall the app is sent `shop.redact` (docs/apps.md, App webhooks): 48 hours. */
  APP_SHOP_REDACT_DELAY_SECONDS: int(48 * 3600),

  /** Theme review checks (docs/themes.md, Review): how long a worker holds a review it checks, how often stranded ones are picked up. */
  THEMES_REVIEW_LEASE_MS: int(60_000, 200),
  THEMES_SWEEP_INTERVAL_MS: int(30_000, 200),

  /**
   * Bulk operations (docs/bulk.md): how long the bulk worker holds an export it runs (renewed as it
   * goes), how often stranded exports and lapsed files are looked for, the size of a part of the
   * file (at least S3's 5 MiB; each part is a checkpoint), and the most root objects and nested
   * items read at a time (fewer when they are large: a read brings about 4 MiB of lines).
   */
  BULK_LEASE_MS: int(60_000, 200),
  BULK_SWEEP_INTERVAL_MS: int(30_000, 200),
  BULK_PART_BYTES: int(8 * 1024 * 1024, 5 * 1024 * 1024),
  BULK_ROOT_PAGE: int(250, 1, 250),
  BULK_NESTED_PAGE: int(250, 1, 250),

  /**
   * Operations (docs/operations.md): how often each process writes its heartbeat (one that missed
   * three is shown gone), how often the maintenance group measures the incident rules and how long
   * a rule fails before its incident opens; `off` writes no heartbeats or runtime counters (only
   * to measure what they cost).
   */
  HEARTBEAT_INTERVAL_MS: int(10_000, 100),
  INCIDENT_EVALUATION_INTERVAL_MS: int(60_000, 200),
  INCIDENT_GRACE_PERIOD_MS: int(120_000),
  OPERATIONS_RECORDING: z.enum(['on', 'off']).default('on'),

  /**
   * The extensions worker's revocations (docs/extensions.md, Revocation): how long it holds one,
   * how often it looks for revocations whose job was lost, how many rows one write revokes, and a
   * pause between those writes (spreads a large revocation's writes; 0: none). Quality gates: how
   * often the sweep looks for apps whose checks are due, and how old a check may grow.
   */
  EXTENSIONS_REVOKE_LEASE_MS: int(60_000, 200),
  EXTENSIONS_SWEEP_INTERVAL_MS: int(30_000, 200),
  EXTENSIONS_REVOKE_BATCH_SIZE: int(100, 1),
  EXTENSIONS_REVOKE_PAUSE_MS: int(0),
  EXTENSIONS_QUALITY_SWEEP_INTERVAL_MS: int(3_600_000, 200),
  EXTENSIONS_QUALITY_MAX_AGE_MS: int(86_400_000, 1_000),

  /** Liquid rendering (docs/rendering.md, Threads): worker threads per process (0: two to four, by the machine's cores) and each thread's heap limit. */
  RENDER_THREADS: int(0, 0, 64),
  RENDER_THREAD_MEMORY_MB: int(256, 32, 4096),

  /** Storefronts (docs/storefront.md): the domain under which `<subdomain>.<domain>` is a store; how long an untouched cart lives. */
  STOREFRONT_BASE_DOMAIN: z
    .string()
    .toLowerCase()
    .regex(/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/, 'must be a domain name such as shops.example.com')
    .default('localhost'),
  CART_IDLE_DAYS: int(14, 1, 365),

  /** The internal routes' shared secret (X-Platform-Internal-Secret). Unset: a public value in development; elsewhere the routes answer 503. */
  INTERNAL_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  // webhooks: the webhooks process's internal routes, and delivery.
  WEBHOOKS_INTERNAL_HOST: z.string().min(1).default('127.0.0.1'),
  WEBHOOKS_INTERNAL_PORT: port(3001, 0),
  /** Where the web process wakes the webhooks service. Unset: http://127.0.0.1:<WEBHOOKS_INTERNAL_PORT>. */
  WEBHOOKS_INTERNAL_URL: httpUrl().optional(),
  /** The retry schedule, for tests only (unset: 120 s doubling, capped at 3600 s). */
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().positive().optional(),
  WEBHOOK_RETRY_CAP_SECONDS: z.coerce.number().positive().optional(),
  /** How often the webhooks sweeper looks for missed events and stranded deliveries. */
  WEBHOOK_SWEEP_INTERVAL_MS: int(10_000, 200),
  /**
   * How long a process trusts what it read of a store's active subscriptions when deciding
   * whether an event is wanted (0: read for every batch of events). A subscription change
   * reaches every process within this time; the sweeper's catch-up covers the gap.
   */
  WEBHOOK_SUBSCRIPTION_CACHE_MS: int(2000, 0, 60_000),
  WEBHOOK_CONNECT_TIMEOUT_MS: int(5000, 10),
  WEBHOOK_TIMEOUT_MS: int(15_000, 10),
  /** Hosts that production delivery may reach even when they resolve to private addresses. */
  WEBHOOK_TARGET_ALLOWLIST: lowerCaseList(),
});

/** The rules between variables, each problem reported at the variable it names. */
function checkCombinations(env: z.output<typeof Variables>, ctx: z.RefinementCtx): void {
  const problem = (name: keyof typeof env, message: string) => ctx.addIssue({ code: 'custom', path: [name], message });
  const deployed = env.APP_ENV === 'staging' || env.APP_ENV === 'production';
  if (deployed && !env.SECRETS_KEYS) problem('SECRETS_KEYS', `is required when APP_ENV is ${env.APP_ENV}`);
  if (deployed && env.SECRETS_KEYS) {
    for (const { id, key } of env.SECRETS_KEYS) {
      if (key.equals(DEV_SECRETS_KEY_BYTES))
        problem('SECRETS_KEYS', `the key "${id}" is the public development key; generate a key of your own (README, Configuration)`);
    }
  }
  if (deployed && env.INTERNAL_SECRET === DEV_INTERNAL_SECRET)
    problem('INTERNAL_SECRET', `is the public development secret; set a random secret of your own when APP_ENV is ${env.APP_ENV}`);
  if (deployed && !env.MONGODB_URL) problem('MONGODB_URL', `is required when APP_ENV is ${env.APP_ENV}`);
  if (env.APP_ENV === 'production' && !env.MESSAGE_RELAY_URL && !env.SMTP_URL)
    problem('SMTP_URL', 'or MESSAGE_RELAY_URL is required in production (sign-in codes and reset links must reach merchants)');
  if (env.SMTP_URL && !env.MAIL_FROM) problem('MAIL_FROM', 'is required when SMTP_URL is set (the sender of every message)');
  const smtp = env.SMTP_URL;
  if (deployed && smtp?.auth && !smtp.secure && smtp.starttls !== 'required' && !isLoopbackHost(smtp.host))
    problem('SMTP_URL', 'sends its password in the clear unless TLS is sure: use smtps:// or ?starttls=required');
  if (env.APP_ENV === 'production' && env.MESSAGE_RELAY_URL && !env.MESSAGE_RELAY_URL.startsWith('https:'))
    problem('MESSAGE_RELAY_URL', 'must be https in production');
  if (env.MESSAGE_RELAY_URL && !env.MESSAGE_RELAY_TOKEN) problem('MESSAGE_RELAY_TOKEN', 'is required when MESSAGE_RELAY_URL is set');
  if (env.APP_ENV === 'production') {
    // The spec's retry schedule is binding in production; only tests run it faster.
    for (const name of ['WEBHOOK_RETRY_BASE_SECONDS', 'WEBHOOK_RETRY_CAP_SECONDS'] as const) {
      if (env[name] !== undefined) problem(name, 'must not be set in production (the schedule is 120 s doubling, capped at 3600 s)');
    }
  }
  for (const name of ['ADMIN_API_RATE_LIMIT', 'ADMIN_API_RATE_WINDOW_SECONDS'] as const) {
    if (env[name] !== undefined)
      problem(name, 'was replaced by ADMIN_API_BUCKET_CAPACITY and ADMIN_API_RESTORE_RATE (a leaky bucket: docs/conventions.md, Rate limits)');
  }
  if (env.STORAGE_DRIVER === 's3') {
    for (const name of ['S3_ENDPOINT', 'S3_REGION', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const) {
      if (!env[name]) problem(name, 'is required when STORAGE_DRIVER is s3');
    }
  }
}

/** The environment's variables → the nested, deeply frozen configuration the platform reads. */
export const ConfigSchema = Variables.superRefine(checkCombinations).transform((e) =>
  deepFreeze({
    env: e.APP_ENV,
    http: {
      host: e.HOST,
      port: e.PORT,
      /** Where browsers reach the web process: the links in emails (a password reset's) start with it. */
      publicBaseUrl: withoutTrailingSlash(e.PUBLIC_BASE_URL ?? `http://127.0.0.1:${e.PORT}`),
      trustProxy: e.TRUST_PROXY,
      proxyHops: e.TRUST_PROXY_HOPS,
      bodyLimitBytes: e.BODY_LIMIT_BYTES,
      adminApiBucket: { capacity: e.ADMIN_API_BUCKET_CAPACITY, restoreRate: e.ADMIN_API_RESTORE_RATE },
      graphqlBucket: { capacity: e.GRAPHQL_BUCKET_CAPACITY, restoreRate: e.GRAPHQL_RESTORE_RATE },
      storefrontGraphql: {
        client: { capacity: e.STOREFRONT_GRAPHQL_CLIENT_CAPACITY, restoreRate: e.STOREFRONT_GRAPHQL_CLIENT_RESTORE_RATE },
        store: { capacity: e.STOREFRONT_GRAPHQL_STORE_CAPACITY, restoreRate: e.STOREFRONT_GRAPHQL_STORE_RESTORE_RATE },
      },
    },
    idempotency: { lockMs: e.IDEMPOTENCY_LOCK_MS },
    mongo: { url: e.MONGODB_URL, dbName: e.MONGODB_DB, connectTimeoutMs: e.MONGODB_CONNECT_TIMEOUT_MS },
    logLevel: e.LOG_LEVEL ?? (e.APP_ENV === 'test' ? 'warn' : 'info'),
    logFormat: e.LOG_FORMAT ?? null,
    secretsKeys: e.SECRETS_KEYS ?? SecretsKeys.parse(DEV_SECRETS_KEY),
    jobs: { pollIntervalMs: e.JOBS_POLL_INTERVAL_MS, shutdownGraceMs: e.WORKER_SHUTDOWN_GRACE_MS, sweepIntervalMs: e.MAINTENANCE_SWEEP_INTERVAL_MS },
    events: { settleAfterMs: e.EVENT_SETTLE_AFTER_MS },
    messageRelay: e.MESSAGE_RELAY_URL && e.MESSAGE_RELAY_TOKEN ? { url: e.MESSAGE_RELAY_URL, token: e.MESSAGE_RELAY_TOKEN } : null,
    // checkCombinations required MAIL_FROM with SMTP_URL.
    mail: { smtp: e.SMTP_URL ?? null, from: e.MAIL_FROM ?? null, leaseMs: e.MESSAGES_LEASE_MS, retryBaseMs: e.MESSAGES_RETRY_BASE_MS },
    localdb: { port: e.LOCALDB_PORT, dir: e.LOCALDB_DIR },
    storage: {
      driver: e.STORAGE_DRIVER,
      localDir: e.STORAGE_LOCAL_DIR,
      publicBaseUrl: withoutTrailingSlash(e.PUBLIC_BASE_URL ?? `http://127.0.0.1:${e.PORT}`),
      // checkCombinations required every S3_ variable of the s3 driver.
      s3:
        e.STORAGE_DRIVER === 's3'
          ? {
              endpoint: withoutTrailingSlash(e.S3_ENDPOINT!),
              region: e.S3_REGION!,
              bucket: e.S3_BUCKET!,
              accessKeyId: e.S3_ACCESS_KEY_ID!,
              secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
              forcePathStyle: e.S3_FORCE_PATH_STYLE,
            }
          : null,
    },
    media: { maxBytes: e.MEDIA_MAX_BYTES },
    apps: {
      operatorEmails: e.OPERATOR_EMAILS,
      /** The OAuth issuer and base of published URLs: PUBLIC_BASE_URL when set, else null (the request's own origin). */
      issuer: e.PUBLIC_BASE_URL ? withoutTrailingSlash(e.PUBLIC_BASE_URL) : null,
      codeTtlSeconds: e.OAUTH_CODE_TTL_SECONDS,
      accessTokenTtlSeconds: e.OAUTH_ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTtlSeconds: e.OAUTH_REFRESH_TOKEN_TTL_SECONDS,
      refreshReuseGraceSeconds: e.OAUTH_REFRESH_REUSE_GRACE_SECONDS,
      sessionTokenTtlSeconds: e.SESSION_TOKEN_TTL_SECONDS,
      oauthRateLimit: e.OAUTH_RATE_LIMIT,
      shopRedactDelaySeconds: e.APP_SHOP_REDACT_DELAY_SECONDS,
    },
    themes: { reviewLeaseMs: e.THEMES_REVIEW_LEASE_MS, sweepIntervalMs: e.THEMES_SWEEP_INTERVAL_MS },
    bulk: {
      leaseMs: e.BULK_LEASE_MS,
      sweepIntervalMs: e.BULK_SWEEP_INTERVAL_MS,
      partBytes: e.BULK_PART_BYTES,
      rootPage: e.BULK_ROOT_PAGE,
      nestedPage: e.BULK_NESTED_PAGE,
    },
    operations: {
      heartbeatMs: e.HEARTBEAT_INTERVAL_MS,
      incidentEvaluationMs: e.INCIDENT_EVALUATION_INTERVAL_MS,
      incidentGraceMs: e.INCIDENT_GRACE_PERIOD_MS,
      recording: e.OPERATIONS_RECORDING === 'on',
    },
    extensions: {
      revokeLeaseMs: e.EXTENSIONS_REVOKE_LEASE_MS,
      sweepIntervalMs: e.EXTENSIONS_SWEEP_INTERVAL_MS,
      revokeBatchSize: e.EXTENSIONS_REVOKE_BATCH_SIZE,
      revokePauseMs: e.EXTENSIONS_REVOKE_PAUSE_MS,
      qualitySweepIntervalMs: e.EXTENSIONS_QUALITY_SWEEP_INTERVAL_MS,
      qualityMaxAgeMs: e.EXTENSIONS_QUALITY_MAX_AGE_MS,
    },
    rendering: { threads: e.RENDER_THREADS, threadMemoryMb: e.RENDER_THREAD_MEMORY_MB },
    storefront: { baseDomain: e.STOREFRONT_BASE_DOMAIN, cartIdleDays: e.CART_IDLE_DAYS },
    // npm start works out of the box (wake-ups included); tests and deployments set their own.
    internalSecret: e.INTERNAL_SECRET ?? (e.APP_ENV === 'development' ? DEV_INTERNAL_SECRET : null),
    webhooks: {
      internalHost: e.WEBHOOKS_INTERNAL_HOST,
      internalPort: e.WEBHOOKS_INTERNAL_PORT,
      internalUrl: withoutTrailingSlash(e.WEBHOOKS_INTERNAL_URL ?? `http://127.0.0.1:${e.WEBHOOKS_INTERNAL_PORT}`),
      retryBaseSeconds: e.WEBHOOK_RETRY_BASE_SECONDS ?? 120,
      retryCapSeconds: e.WEBHOOK_RETRY_CAP_SECONDS ?? 3600,
      sweepIntervalMs: e.WEBHOOK_SWEEP_INTERVAL_MS,
      subscriptionCacheMs: e.WEBHOOK_SUBSCRIPTION_CACHE_MS,
      connectTimeoutMs: e.WEBHOOK_CONNECT_TIMEOUT_MS,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      targetAllowlist: e.WEBHOOK_TARGET_ALLOWLIST,
    },
  } as const),
);

export type Config = z.output<typeof ConfigSchema>;
export type S3Config = NonNullable<Config['storage']['s3']>;

/**
 * Development and test: where nothing is sold or sent for real, so the sandbox checkouts that sign
 * payments nobody made, and the readable message outbox, exist. Never staging or production.
 */
export const isLocalEnv = (config: Pick<Config, 'env'>): boolean => config.env === 'development' || config.env === 'test';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings count as unset, so `FOO= npm start` behaves like leaving FOO out.
  const env = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || '(environment)'}: ${i.message}`));
  }
  return parsed.data;
}

/**
 * Whether the configuration runs on the public development secrets (the operators' readiness
 * report, docs/operations.md): the development SECRETS_KEYS key among the keys, the development
 * INTERNAL_SECRET.
 */
export function developmentSecrets(config: Pick<Config, 'secretsKeys' | 'internalSecret'>): { secretsKey: boolean; internalSecret: boolean } {
  return { secretsKey: config.secretsKeys.some((k) => k.key.equals(DEV_SECRETS_KEY_BYTES)), internalSecret: config.internalSecret === DEV_INTERNAL_SECRET };
}

/** For process entries: parse, or print every problem and exit 1. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
