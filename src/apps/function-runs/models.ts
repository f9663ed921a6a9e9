import type { Db, ObjectId } from 'mongodb';
import type { IndexDeclaration } from '../../db.js';
import type { FunctionFailure } from '../functions/engine.js';
import type { CheckoutFunctionTarget } from '../functions/targets.js';

export const FUNCTION_METRICS = 'app_function_metrics';
export const FUNCTION_APP_METRICS = 'app_function_app_metrics';
export const FUNCTION_RUNS = 'app_function_runs';

/**
 * Upper edges (ms) of the run-duration histogram's buckets (`b0` … `b9`, the last without an
 * edge): a percentile is read as the upper edge of the bucket it falls in (docs/extensions.md, Metrics).
 */
export const DURATION_EDGES_MS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 25] as const;
export type DurationBuckets = Partial<Record<`b${number}`, number>>;

/** The figures of spec 6.2 over one UTC day, kept as runs happen (`$inc`). */
export type ExecutionFigures = {
  day: string;
  /** `app_function.execution.count` */
  count: number;
  /** `app_function.execution.failed_securely` */
  failed_securely: number;
  /** `app_function.execution.duration_ms`: the sum and the histogram. */
  duration_ms_total: number;
  duration_buckets: DurationBuckets;
  /** Failed runs by code. */
  failures: Partial<Record<FunctionFailure, number>>;
};

/** Which function: a registration of one store's installation, with its handle and target. */
type FunctionRef = {
  registration_id: ObjectId;
  store_id: ObjectId;
  installation_id: ObjectId;
  app_id: ObjectId;
  handle: string;
  target: CheckoutFunctionTarget;
};

/** One function on one day; `_id` is `<registration id>:<day>`. */
export type FunctionMetricsDocument = ExecutionFigures & FunctionRef & { _id: string };

/** Every store's runs of an app's functions on one day (the quality gate reads these); `_id` is `<app id>:<day>`. */
export type FunctionAppMetricsDocument = ExecutionFigures & { _id: string; app_id: ObjectId };

/** One run, in the run log (the newest MAX_KEPT_RUNS of each function are kept). */
export type FunctionRunDocument = FunctionRef & {
  _id: ObjectId;
  at: Date;
  /** `ok`, or `failed_securely`: the advice was dropped. */
  outcome: 'ok' | 'failed_securely';
  error_code: FunctionFailure | null;
  error_message: string | null;
  input_bytes: number;
  output_bytes: number;
  duration_ms: number;
  operations: number | null;
  /** Which checkout ran it: the shopper's cart and customer (personal data: the merchant's view only). */
  cart_id: string | null;
  customer_id: string | null;
};

export const functionRunIndexes: IndexDeclaration[] = [
  {
    collection: FUNCTION_METRICS,
    indexes: [
      { key: { installation_id: 1, day: 1 }, name: 'installation_id_day' },
      { key: { day: 1, registration_id: 1 }, name: 'day_registration_id' },
    ],
  },
  { collection: FUNCTION_APP_METRICS, indexes: [{ key: { app_id: 1, day: 1 }, name: 'app_id_day' }] },
  {
    collection: FUNCTION_RUNS,
    indexes: [
      { key: { installation_id: 1, _id: -1 }, name: 'installation_id_id_desc' },
      { key: { registration_id: 1, _id: -1 }, name: 'registration_id_id_desc' },
    ],
  },
];

export const functionMetrics = (db: Db) => db.collection<FunctionMetricsDocument>(FUNCTION_METRICS);
export const functionAppMetrics = (db: Db) => db.collection<FunctionAppMetricsDocument>(FUNCTION_APP_METRICS);
export const functionRuns = (db: Db) => db.collection<FunctionRunDocument>(FUNCTION_RUNS);
