/**
 * The bounds a theme's Liquid sources keep (docs/rendering.md, Limits), checked by one linear scan
 * of each file before anything parses it: at upload (the bundle validator), in the review's
 * `liquid_syntax` check and when a renderer compiles a theme version. liquidjs's parser takes
 * time quadratic in a file's node count past about 16,000 tokens (its token list is consumed
 * with `Array.shift`, a copy of the rest once an array is that large), so a file is refused on
 * its counts, cheaply, instead of being parsed for seconds.
 */
export const LIQUID_BOUNDS = {
  /** Characters of one `.liquid` file (Shopify's limit for a theme file is 256 KB). */
  fileChars: 256 * 1024,
  /** Liquid tags and outputs of one file (`{{ }}`, `{% %}`, and each line of a `{% liquid %}` tag). */
  fileNodes: 5_000,
  /** Blocks (`if`, `for`, `case`, `capture`, …) open inside each other in one file. */
  nesting: 50,
  /** Characters of all of a theme's Liquid files together (also liquidjs's `parseLimit`). */
  themeChars: 4 * 1024 * 1024,
  /** Tags and outputs of all of a theme's Liquid files together. */
  themeNodes: 100_000,
} as const;

/** The tags that open a block closed by `end<name>`. */
const BLOCK_TAGS = new Set(['if', 'unless', 'case', 'for', 'tablerow', 'capture', 'block', 'paginate']);
/** Tags whose content is not Liquid, skipped to their end tag. */
const VERBATIM_TAGS = new Set(['raw', 'comment']);
const TAG_NAME = /^[\s-]*([A-Za-z_#][\w]*)?/;

export type LiquidScan = { chars: number; nodes: number; depth: number };

/** A file's size, node count and deepest block nesting, read in one pass without parsing. */
export function scanLiquid(source: string): LiquidScan {
  let nodes = 0;
  let depth = 0;
  let deepest = 0;
  const tag = (name: string) => {
    nodes++;
    if (BLOCK_TAGS.has(name)) deepest = Math.max(deepest, ++depth);
    else if (name.startsWith('end') && BLOCK_TAGS.has(name.slice(3)) && depth > 0) depth--;
  };
  let i = 0;
  while (i < source.length) {
    const at = source.indexOf('{', i);
    if (at < 0 || at + 1 >= source.length) break;
    const next = source[at + 1];
    if (next === '{') {
      nodes++;
      const end = source.indexOf('}}', at + 2);
      i = end < 0 ? source.length : end + 2;
      continue;
    }
    if (next !== '%') {
      i = at + 1;
      continue;
    }
    const end = source.indexOf('%}', at + 2);
    if (end < 0) {
      nodes++;
      break;
    }
    const body = source.slice(at + 2, end);
    const name = TAG_NAME.exec(body)?.[1] ?? '';
    i = end + 2;
    if (VERBATIM_TAGS.has(name)) {
      nodes++;
      const closing = new RegExp(`\\{%-?\\s*end${name}\\s*-?%\\}`, 'g');
      closing.lastIndex = i;
      const found = closing.exec(source);
      i = found ? found.index + found[0].length : source.length;
    } else if (name === 'liquid') {
      nodes++;
      for (const line of body.slice(body.indexOf('liquid') + 'liquid'.length).split('\n')) {
        const inner = TAG_NAME.exec(line)?.[1];
        if (inner) tag(inner);
      }
    } else tag(name);
  }
  return { chars: source.length, nodes, depth: deepest };
}

/** Why one file is past the bounds (a sentence after its path), or null. */
export function liquidFileProblem(scan: LiquidScan): string | null {
  const b = LIQUID_BOUNDS;
  if (scan.chars > b.fileChars) return `is ${scan.chars} characters; a Liquid file may have at most ${b.fileChars} characters`;
  if (scan.nodes > b.fileNodes) return `has ${scan.nodes} Liquid tags and outputs; a file may have at most ${b.fileNodes} Liquid tags and outputs`;
  if (scan.depth > b.nesting) return `nests blocks ${scan.depth} deep; a file may not be nested deeper than ${b.nesting}`;
  return null;
}

export type LiquidBoundsReport = {
  /** Each file past a bound, with why: `path` → sentence. */
  files: Map<string, string>;
  /** Why the theme's files together are past a bound, or null. */
  theme: string | null;
};

/**
 * The bounds applied to a theme's Liquid files (`.liquid` paths with inline content). The files
 * are scanned only up to what the bounds allow in all: a theme far past them costs no more than
 * one at them.
 */
export function checkLiquidBounds(files: Iterable<{ path: string; content: string }>): LiquidBoundsReport {
  const b = LIQUID_BOUNDS;
  const report: LiquidBoundsReport = { files: new Map(), theme: null };
  let chars = 0;
  let nodes = 0;
  for (const file of files) {
    chars += file.content.length;
    if (chars > b.themeChars) {
      report.theme = `the theme's Liquid files have more than ${b.themeChars} characters together (at most ${b.themeChars})`;
      break;
    }
    // A file over the size limit is refused on its size alone, without reading it.
    const scan = file.content.length > b.fileChars ? { chars: file.content.length, nodes: 0, depth: 0 } : scanLiquid(file.content);
    const problem = liquidFileProblem(scan);
    if (problem) report.files.set(file.path, problem);
    nodes += scan.nodes;
    if (nodes > b.themeNodes) {
      report.theme = `the theme's Liquid files have more than ${b.themeNodes} tags and outputs together (at most ${b.themeNodes})`;
      break;
    }
  }
  return report;
}
