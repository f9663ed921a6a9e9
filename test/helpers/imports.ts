import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * What a thread's compiled entry module loads: the files of dist/src it reaches through relative
 * imports (relative to dist/src, the entry included) and the packages they import (`node:` dropped).
 */
export function compiledImports(entry: string): { files: string[]; packages: string[] } {
  const root = resolve('dist/src');
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
      if (spec!.startsWith('.')) visit(resolve(dirname(file), spec!));
      else packages.add(spec!.replace(/^node:/, '').split('/')[0]!);
    }
  };
  visit(join(root, entry));
  return { files: [...seen].map((f) => relative(root, f)), packages: [...packages].sort() };
}
