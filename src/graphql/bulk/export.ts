import type { GraphQLSchema } from 'graphql';
import { ObjectId, type Filter } from 'mongodb';
import { z } from 'zod';
import { carrying } from '../../events/index.js';
import { IdString } from '../../ids.js';
import { defineJob } from '../../job.js';
import { ownValue } from '../../own-keys.js';
import type { Platform } from '../../platform.js';
import { objectStorage, type ObjectStorage } from '../../storage/index.js';
import { claimLease, extendLease, heldBy, NO_LEASE, type Lease } from '../../work/lease.js';
import { idCursor } from '../connections.js';
import { fromGlobalId } from '../ids.js';
import { isCarried } from './projection.js';
import { childPageQuery, planBulkQuery, type BulkPlan, type PlannedConnection } from './query.js';
import {
  contextOf,
  ExportError,
  itemLine,
  parentTail,
  READ_AHEAD,
  readAhead,
  readPage,
  ReadSize,
  run,
  type Caller,
  type Json,
  type Page,
  type ReadObject,
  type ReadSizes,
} from './read.js';
import { bulkOperationFacts, scopeOfType, URL_LIFETIME_SECONDS } from './facts.js';
import { bulkOperations, type BulkCheckpoint, type BulkOperationDocument, type BulkStatus } from './models.js';

/**
 * The export (docs/bulk.md, The export), the `bulk.export` job of the bulk worker: under the
 * operation's lease it walks the root connection a page at a time in `_id` order and writes one
 * JSON object a line (a root object, then each object of its nested connections with
 * `__parentId`), into a multipart upload of the file. Lines are held until they make a part
 * (BULK_PART_BYTES, ending at a root object's last line); after each part the checkpoint (the
 * upload, its parts, the last root object written, the counts) is saved with the lease, so a
 * worker killed at any moment is resumed by another from the last part, with no line twice or
 * missing. Each read asks for as many objects as make about READ_BYTES of lines and reads of
 * their documents only the fields its query selects, so memory holds one part and two reads,
 * whatever the file's and the documents' size.
 */

export type ExportOutcome = 'completed' | 'failed' | 'canceled' | 'busy' | 'gone';

/** How often a running export reads whether it is canceled and who its caller is now (with the page it reads then). */
const CHECK_EVERY_MS = 200;

/**
 * Workers that may die holding an export, without it writing a part in between, before it fails
 * (`WORKER_DIED`) instead of being taken up again: an export that runs its worker out of memory
 * would otherwise take down every worker that takes it up, and every export those hold with it.
 */
const MAX_WORKER_DEATHS = 2;

const keyOf = (op: Pick<BulkOperationDocument, '_id' | 'store_id'>) => `bulk/${op.store_id.toHexString()}/${op._id.toHexString()}.jsonl`;

/**
 * One root object's lines, into the writer: its own line, then every object of each nested
 * connection with `__parentId`: the first page as read with its page, the next ones through
 * `node(id:)`, a page at a time (a root object with very many children is held as bytes of the
 * part, not as strings), the lease kept before each. Answers how many lines it wrote.
 */
async function writeObject(
  ctx: Caller,
  plan: BulkPlan,
  object: ReadObject,
  sizes: ReadSizes,
  writer: PartWriter,
  keepLease: () => Promise<void>,
): Promise<number> {
  const start = writer.held;
  try {
    return await writeLines();
  } catch (err) {
    writer.truncate(start); // held lines are whole root objects: a failed one's lines go
    throw err;
  }
  async function writeLines(): Promise<number> {
    writer.add(object.line);
    let count = 1;
    const tail = parentTail(object.id);
    // An object deleted since its page was read is written without its connections.
    for (const child of object.children ? plan.connection.children : []) {
      const size = sizes.items.get(child.key)!;
      let page = object.children!.get(child.key)!;
      for (;;) {
        for (const line of page.lines) writer.add(line);
        count += page.lines.length;
        if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor) break;
        await keepLease();
        const data = await run(ctx, childPageQuery(child, plan.connection.itemType, object.id, page.pageInfo.endCursor, size.count));
        const next = ownValue(data.node as Json, child.key) as Page;
        page = { lines: next.nodes.map((item) => itemLine(item, tail)), pageInfo: next.pageInfo };
        if (page.lines.length) size.observe(Math.max(...page.lines.map((l) => l.length)));
      }
    }
    return count;
  }
}

/**
 * The multipart file being written: lines held until they make a part; each part written then
 * checkpointed. Lines are written into one buffer, reused from part to part (grown only for a
 * root object bigger than a part), so a part costs no garbage but the lines' strings.
 */
class PartWriter {
  private buffer: Buffer;
  /** Bytes held for the next part. */
  held = 0;

  constructor(
    private readonly storage: ObjectStorage,
    private readonly key: string,
    private readonly partBytes: number,
    public checkpoint: BulkCheckpoint,
  ) {
    this.buffer = Buffer.allocUnsafe(partBytes + 1024 * 1024);
  }

  /** A line of a root object (the counts go into the checkpoint once its part is written). */
  add(line: string): void {
    // A UTF-16 unit is at most 3 bytes of UTF-8: measure exactly only when that may not fit.
    if (this.held + line.length * 3 + 1 > this.buffer.length) {
      const need = this.held + Buffer.byteLength(line, 'utf8') + 1;
      if (need > this.buffer.length) {
        const bigger = Buffer.allocUnsafe(Math.max(need, this.buffer.length * 2));
        this.buffer.copy(bigger, 0, 0, this.held);
        this.buffer = bigger;
      }
    }
    this.held += this.buffer.write(line, this.held, 'utf8');
    this.buffer[this.held++] = 0x0a;
  }

  /** Drop what was added after `held` was `bytes`. */
  truncate(bytes: number): void {
    this.held = Math.min(this.held, bytes);
  }

  get full(): boolean {
    return this.held >= this.partBytes;
  }

  /** Write what is held as the next part, and answer the checkpoint that includes it (`after` the last root object in it). */
  async flush(after: string | null, counts: { objects: number; roots: number }): Promise<BulkCheckpoint> {
    if (this.held === 0) return this.checkpoint;
    const partNumber = this.checkpoint.parts.length + 1;
    const { etag } = await this.storage.uploadPart(this.key, this.checkpoint.upload_id!, partNumber, this.buffer.subarray(0, this.held));
    this.checkpoint = {
      ...this.checkpoint,
      parts: [...this.checkpoint.parts, { partNumber, etag }],
      after_root_id: after,
      object_count: this.checkpoint.object_count + counts.objects,
      root_object_count: this.checkpoint.root_object_count + counts.roots,
      bytes: this.checkpoint.bytes + this.held,
    };
    this.held = 0; // the upload is done with the buffer: the next part reuses it
    return this.checkpoint;
  }
}

/**
 * Run (or resume) the export of an operation. Takes its lease (`busy` when another worker holds
 * it, `gone` when it is finished or does not exist), then pages through the query until it is
 * done, canceled (checked at every page) or failed, and finishes the file and the operation.
 */
export async function runExport(platform: Platform, operationId: string, schema: GraphQLSchema): Promise<ExportOutcome> {
  const coll = bulkOperations(platform.db);
  const lease: Lease = { owner: platform.process.id, ms: platform.config.bulk.leaseMs };
  const found = await coll.findOne({ _id: new ObjectId(operationId) });
  if (!found || !['created', 'running', 'canceling'].includes(found.status)) return 'gone';
  const claim = (takenFromTheDead: boolean) =>
    claimLease(
      coll,
      lease,
      platform.clock.now(),
      {
        _id: found._id,
        status: { $in: ['created', 'running', 'canceling'] },
        lease_owner: takenFromTheDead ? { $ne: null } : null,
      } as Filter<BulkOperationDocument>,
      {
        set: { updated_at: platform.clock.now(), ...(found.status === 'created' ? { status: 'running' as BulkStatus, started_at: platform.clock.now() } : {}) },
        ...(takenFromTheDead ? { inc: { worker_deaths: 1 } } : {}),
      },
    );
  // Nobody's, or given back; else a lease that ran out without being given back: its worker died holding it.
  let op = (await claim(false)) ?? (await claim(true));
  if (!op) return 'busy';
  const storage = objectStorage(platform);
  const key = keyOf(op);

  /** Save a checkpoint (and renew the lease); a lease lost means another worker has the export now: stop. A part written clears the deaths. */
  const save = async (checkpoint: BulkCheckpoint, wrotePart = false): Promise<void> => {
    const held = await extendLease(coll, op!, lease, platform.clock.now(), {
      set: { checkpoint, updated_at: platform.clock.now(), ...(wrotePart ? { worker_deaths: 0 } : {}) },
    });
    if (!held) throw new ExportError('LEASE_LOST', 'another worker took the export over');
    op = held;
  };

  let checkpoint = op.checkpoint;
  if (checkpoint.finishing) {
    // Its worker died while finishing: every part is written; finish again.
    const { outcome, error_code, error_message } = checkpoint.finishing;
    await finish(platform, op, storage, key, checkpoint, outcome, error_code ? new ExportError(error_code, error_message ?? '') : null, lease);
    return outcome;
  }
  let outcome: 'completed' | 'failed' | 'canceled' = 'completed';
  let error: ExportError | null = null;
  let writer: PartWriter | null = null;
  let after = checkpoint.after_root_id;
  let pending = { objects: 0, roots: 0 };
  if (op.worker_deaths >= MAX_WORKER_DEATHS) {
    outcome = 'failed';
    error = new ExportError(
      'WORKER_DIED',
      'The export stopped its bulk worker twice without writing a part in between (out of memory, killed, or unresponsive for a whole lease): it is not tried again',
    );
    platform.log.error({ event: 'bulk.worker_deaths', operation_id: operationId, deaths: op.worker_deaths });
  } else {
    try {
      if (!checkpoint.upload_id) {
        const { uploadId } = await storage.startMultipart(key, 'application/jsonl');
        checkpoint = { ...checkpoint, upload_id: uploadId };
        await save(checkpoint);
      }
      const planned = planBulkQuery(schema, op.query, scopeOfType);
      if ('problems' in planned) throw new ExportError('INVALID_QUERY', planned.problems[0]!.message);
      const plan: BulkPlan = planned.plan;
      writer = new PartWriter(storage, key, platform.config.bulk.partBytes, checkpoint);
      const { rootPage, nestedPage } = platform.config.bulk;
      const carried = (c: PlannedConnection) => isCarried(plan.connection.itemType.name, c.field.name.value);
      const sizes: ReadSizes = {
        carried: plan.connection.children.filter(carried),
        apart: plan.connection.children.filter((c) => !carried(c)),
        roots: new ReadSize(rootPage),
        parents: new ReadSize(rootPage),
        items: new Map(plan.connection.children.map((c) => [c.key, new ReadSize(nestedPage)])),
      };
      /**
       * Whether to go on: a cancel, and the caller as it is now (an app uninstalled or narrowed
       * half-way fails the export), read with the page read after each part, and between parts
       * with a page at most every CHECK_EVERY_MS.
       */
      let checked = 0;
      let current: Caller | null = null;
      const goOn = async (): Promise<Caller | null> => {
        if (current && Date.now() - checked < CHECK_EVERY_MS) return current;
        checked = Date.now();
        const [status, ctx] = await Promise.all([coll.findOne({ _id: op!._id }, { projection: { status: 1 } }), contextOf(platform, op!, schema)]);
        current = status?.status === 'canceling' ? null : ctx;
        return current;
      };
      const renewEvery = Math.max(1, Math.floor(lease.ms / 4));
      let renewed = Date.now();
      /** Before a read: the lease renewed (with the checkpoint as of the last part) once a quarter of it has passed, not at every read. */
      const keepLease = async (): Promise<void> => {
        if (Date.now() - renewed < renewEvery) return;
        await save(writer!.checkpoint);
        renewed = Date.now();
      };
      let ctx = await goOn();
      if (!ctx) outcome = 'canceled';
      // Reading runs ahead of writing (READ_AHEAD pages): each page, with the verdict on going on,
      // is asked for as soon as the one before it has arrived, while earlier pages' lines are made
      // and written (the database's work overlaps ours).
      const pages = ctx
        ? readAhead(after, (cursorId) => Promise.all([readPage(current ?? ctx!, plan, sizes, cursorId ? idCursor(cursorId) : null), goOn()]), READ_AHEAD)
        : null;
      for (let next = pages?.next(); next; next = pages!.next()) {
        const [page, verdict] = await next;
        if (!verdict) {
          outcome = 'canceled';
          break;
        }
        ctx = verdict;
        await keepLease();
        for (const object of page.objects) {
          const lines = await writeObject(ctx, plan, object, sizes, writer, keepLease);
          pending = { objects: pending.objects + lines, roots: pending.roots + 1 };
          after = fromGlobalId(object.id)?.id ?? after;
          if (writer.full) {
            checkpoint = await writer.flush(after, pending);
            pending = { objects: 0, roots: 0 };
            await save(checkpoint, true);
            renewed = Date.now();
            checked = 0; // after a part, the next page read asks afresh whether to go on
          }
        }
      }
      checkpoint = await writer.flush(after, pending);
    } catch (err) {
      if (err instanceof ExportError && err.code === 'LEASE_LOST') {
        platform.log.warn({ event: 'bulk.lease_lost', operation_id: operationId });
        return 'busy';
      }
      error = err instanceof ExportError ? err : new ExportError('INTERNAL_ERROR', 'The export failed');
      if (!(err instanceof ExportError))
        platform.log.error({ event: 'bulk.export_failed', operation_id: operationId, err: (err as Error).message, stack: (err as Error).stack });
      outcome = 'failed';
      // What is held is whole root objects: the partial file gets them too (unless writing is what failed).
      if (writer) checkpoint = await writer.flush(after, pending).catch(() => writer!.checkpoint);
    }
  }
  checkpoint = { ...checkpoint, finishing: { outcome, error_code: error?.code ?? null, error_message: error?.message ?? null } };
  try {
    await save(checkpoint);
  } catch (err) {
    if (err instanceof ExportError && err.code === 'LEASE_LOST') return 'busy';
    throw err;
  }
  await finish(platform, op, storage, key, checkpoint, outcome, error, lease);
  return outcome;
}

/**
 * Exports one bulk operation, under its lease, from its checkpoint (the bulk worker's job). It is
 * given the admin schema by the module (`given`): the schema's bulk fields start exports.
 */
export const ExportBulkOperation = defineJob({
  name: 'bulk.export',
  group: 'bulk',
  concurrency: 2,
  payload: z.object({ operation_id: IdString('bulk operation') }),
  run: async (platform, { operation_id }, schema: GraphQLSchema) => ({ operation_id, outcome: await runExport(platform, operation_id, schema) }),
});

/**
 * Finish the file (what was written, whole, or the partial file of a failure or a cancel) and
 * the operation, with `bulk_operation.finished` carried by the same write.
 */
async function finish(
  platform: Platform,
  op: BulkOperationDocument,
  storage: ObjectStorage,
  key: string,
  checkpoint: BulkCheckpoint,
  outcome: 'completed' | 'failed' | 'canceled',
  error: ExportError | null,
  lease: Lease,
): Promise<void> {
  let size = 0;
  if (checkpoint.upload_id && checkpoint.parts.length > 0) size = (await storage.completeMultipart(key, checkpoint.upload_id, checkpoint.parts)).size;
  else {
    if (checkpoint.upload_id) await storage.abortMultipart(key, checkpoint.upload_id);
    await storage.put(key, Buffer.alloc(0), 'application/jsonl');
  }
  const now = platform.clock.now();
  const set = {
    status: outcome,
    checkpoint,
    file: { key, size, partial: outcome !== 'completed', expires_at: new Date(now.getTime() + URL_LIFETIME_SECONDS * 1000) },
    error_code: error?.code ?? null,
    error_message: error?.message ?? null,
    running_key: op._id.toHexString(),
    completed_at: now,
    updated_at: now,
    ...NO_LEASE,
  };
  const pending = [
    platform.events.pending(
      'bulk_operation.finished',
      op.store_id,
      { bulk_operation: bulkOperationFacts({ ...op, ...set }) },
      `bulk_operation.finished:${op._id.toHexString()}`,
      // Addressed to who started it: an app hears of its own operations only, and no app of a merchant's.
      { recipient: { type: op.caller.type === 'app' ? 'app_installation' : 'merchant', id: op.caller.id } },
    ),
  ];
  const written = await bulkOperations(platform.db).updateOne(heldBy(op, lease.owner), carrying<BulkOperationDocument>({ $set: set }, pending));
  if (written.matchedCount === 1) await platform.events.settle(bulkOperations(platform.db), op._id, pending);
  platform.log.info({
    event: 'bulk.finished',
    operation_id: op._id.toHexString(),
    outcome,
    objects: checkpoint.object_count,
    bytes: size,
    error_code: error?.code ?? null,
  });
}
