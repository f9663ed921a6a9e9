import type { Db } from 'mongodb';
import type { IndexDeclaration } from '../db.js';

export const RUNTIME_COUNTERS = 'runtime_counters';

export type Resolution = 'minute' | 'hour';

/** One series' count in one minute or hour, for one set of labels. `_id` is `<m|h>|<at ms>|<series>|<labels>`. */
export type CounterDocument = {
  _id: string;
  series: string;
  /** The labels, as `name=value` pairs joined by `,` in name order (`class=2xx`): the line a dashboard draws. */
  labels: string;
  resolution: Resolution;
  /** The minute's or hour's start. */
  at: Date;
  count: number;
};

export const counterIndexes: IndexDeclaration[] = [
  {
    collection: RUNTIME_COUNTERS,
    indexes: [
      { key: { series: 1, resolution: 1, at: 1 }, name: 'series_resolution_at' },
      { key: { resolution: 1, at: 1 }, name: 'resolution_at' },
    ],
  },
];

export const runtimeCounters = (db: Db) => db.collection<CounterDocument>(RUNTIME_COUNTERS);
