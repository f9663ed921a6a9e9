import type { Db } from 'mongodb';

/** Every document of every collection, for before/after comparisons and secret scans. */
export async function snapshot(db: Db): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
    out[name] = await db.collection(name).find({}).sort({ _id: 1 }).toArray();
  }
  return out;
}

/**
 * The collections the platform changes on its own, whatever a request did: the job queue (workers),
 * the runtime counters (every request is counted, and written within two seconds) and the process
 * rows (heartbeats).
 */
const CHANGING_ON_THEIR_OWN = new Set(['agendaJobs', 'runtime_counters', 'processes']);

/** Document counts per collection (ignoring those the platform changes on its own). */
export async function counts(db: Db): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
    if (CHANGING_ON_THEIR_OWN.has(name)) continue;
    out[name] = await db.collection(name).countDocuments({});
  }
  return out;
}

/** The collections (and a sample) whose documents contain `needle` anywhere, in any field. */
export async function findPlaintext(db: Db, needle: string): Promise<string[]> {
  const hits: string[] = [];
  for (const [name, docs] of Object.entries(await snapshot(db))) {
    for (const doc of docs) {
      if (JSON.stringify(doc).includes(needle)) hits.push(`${name}: ${JSON.stringify(doc).slice(0, 200)}`);
    }
  }
  return hits;
}
