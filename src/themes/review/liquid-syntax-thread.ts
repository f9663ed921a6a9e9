import { Liquid } from 'liquidjs';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { paginateTag } from '../../liquid-paginate.js';

/**
 * The thread of the review's `liquid_syntax` check (liquid-syntax.ts): parses each file it is
 * sent with liquidjs and answers each error with its file, line and column. The files were
 * checked against the bounds first, so a parse is cheap; if one is not, the worker's pool stops
 * this thread at its deadline and the check fails, and the themes worker goes on.
 */
export type SyntaxRequest = { files: [string, string][] };
export type SyntaxAnswer = { errors: string[] };

const port = (workerData as { port: MessagePort }).port;
const engine = new Liquid();
// The tags the platform's renderer adds to liquidjs's (src/rendering/liquid/engine.ts): parsed as it parses them.
engine.registerTag(
  'paginate',
  paginateTag(() => null),
);

parentPort!.on('message', ({ files }: SyntaxRequest) => {
  const errors: string[] = [];
  for (const [path, source] of files) {
    try {
      engine.parse(source, path);
    } catch (err) {
      const position = (err as { token?: { getPosition?(): [number, number] } }).token?.getPosition?.();
      const message = (err as Error).message.split(', file:')[0];
      errors.push(`${path}${position ? `:${position[0]}:${position[1]}` : ''}: ${message}`);
    }
  }
  port.postMessage({ errors } satisfies SyntaxAnswer);
});
