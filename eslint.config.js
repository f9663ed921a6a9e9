import { readdirSync } from 'node:fs';
import { URL } from 'node:url';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import emporium from './tools/eslint/no-open-key-lookup.js';

/*
 * The floors of src/ (docs/architecture.md, "Floors"), bottom to top:
 * - the core: the toolkit folders below and the top-level files that are not entry points;
 * - the domains: every other folder, each used by others only through its index.ts;
 * - the top: the module list, the composition root and the process entries (and the dev tools).
 * An import may go down or sideways into a domain's index.ts, never up, and never into another
 * domain's other files. Type imports count too: the rule is about what knows what. Import
 * cycles are dependency-cruiser's to refuse (.dependency-cruiser.cjs, also run by `npm run lint`).
 */
const CORE_DIRS = ['http', 'events', 'secrets', 'work', 'outbound', 'threads', 'counters'];
const TOP_FILES = ['boot', 'modules', 'web', 'worker', 'process'];
const TOOL_DIRS = ['dev', 'localdb', 'seaweedfs'];
const DOMAINS = readdirSync(new URL('./src', import.meta.url), { withFileTypes: true })
  .filter((e) => e.isDirectory() && !CORE_DIRS.includes(e.name) && !TOOL_DIRS.includes(e.name))
  .map((e) => e.name);
const CORE_FILES = readdirSync(new URL('./src', import.meta.url))
  .filter((f) => f.endsWith('.ts') && !TOP_FILES.includes(f.slice(0, -3)))
  .map((f) => `src/${f}`);

const anyOf = (names) => `(?:${names.join('|')})`;
const up = (depth) => (depth === 0 ? '\\./' : `(?:\\.\\./){${depth}}`);
const noTop = (depth) => ({
  regex: `^${up(depth)}${anyOf([...TOP_FILES, ...TOOL_DIRS])}(?:\\.js$|/)`,
  message: 'The module list, the composition root, the process entries and the dev tools are the top floor: nothing below imports them.',
});
const noDomain = (depth) => ({
  regex: `^${up(depth)}${anyOf(DOMAINS)}/`,
  message:
    'The core (the Platform type, config, db, queue, events, clock, log, ids, errors, the lease engine in work/, outbound requests in outbound/, the runtime counters in counters/) and the http toolkit import no domain: take what a domain provides through src/module.ts (src/boot.ts wires it).',
});
/** From `prefix` (the way up to src/), outside domain `self`: a domain only through its index.ts. */
const onlyIndex = (prefix, self = null) => ({
  regex: `^${prefix}${self ? `(?!${self}/)` : ''}${anyOf(DOMAINS)}/(?!index\\.js$)`,
  message: 'Another domain is used only through its index.ts (what it exports is its contract).',
});
/**
 * The job queue (src/queue.ts) is the one file that knows Agenda: everything else enqueues by a
 * job's contract object (`platform.jobs.enqueue(ReviewThemeVersion, { review_id })`), never by a
 * name, and never reaches the Agenda instance.
 */
const QUEUE_FACADE = 'src/queue.ts';
const agendaImports = {
  'no-restricted-imports': [
    'error',
    {
      paths: ['agenda', '@agendajs/mongo-backend'].map((name) => ({
        name,
        message: 'Only the queue facade (src/queue.ts) knows Agenda: use platform.jobs (enqueue, cancel, work).',
      })),
    },
  ],
};
const QUEUE_SYNTAX = [
  {
    selector: "MemberExpression[property.name='agenda']",
    message: 'Only the queue facade (src/queue.ts) knows Agenda: use platform.jobs (enqueue, cancel, work).',
  },
  {
    selector: 'CallExpression[callee.property.name=/^(enqueue|cancel)$/][arguments.0.type=/^(Literal|TemplateLiteral)$/]',
    message: "A job is named by its contract object (defineJob in the owning domain's jobs.ts), never by a string.",
  },
  {
    selector: 'CallExpression[callee.property.name=/^(enqueue|cancel)$/][arguments.0.expression.type=/^(Literal|TemplateLiteral)$/]',
    message: "A job is named by its contract object (defineJob in the owning domain's jobs.ts), never by a string (cast or not).",
  },
];
/** Agenda's documents are the facade's too: the operators read and change queued jobs through platform.jobs. */
const AGENDA_COLLECTION = {
  selector: "Literal[value='agendaJobs']",
  message:
    "Agenda's collection is read and written only by the queue facade (src/queue.ts): use platform.jobs (list, find, rerun, removeQueued, unlock, countByState).",
};
/** What a folder stores is declared in its models.ts, so its persistence is read in one place. */
const COLLECTION_OUTSIDE_MODELS = {
  selector: "CallExpression[callee.property.name='collection'][typeArguments]",
  message: "A collection is declared (db.collection<Document>(NAME)) only in its owner's models.ts; import the accessor from there.",
};
const syntax = (selectors) => ({ 'no-restricted-syntax': ['error', ...selectors] });

const restricted = (patterns) => ({ '@typescript-eslint/no-restricted-imports': ['error', { patterns }] });

export default tseslint.config(
  // *.generated.ts: written by tools (npm run graphql:types), checked by the type checker and their own staleness test.
  { ignores: ['dist/', 'node_modules/', '.localdb/', 'tools/', 'fixtures/', '.dependency-cruiser.cjs', '**/*.generated.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  // The core: no domain, nothing from the top.
  { files: CORE_FILES, rules: restricted([noDomain(0), noTop(0)]) },
  ...CORE_DIRS.map((dir) => ({ files: [`src/${dir}/*.ts`], rules: restricted([noDomain(1), noTop(1)]) })),
  ...CORE_DIRS.map((dir) => ({ files: [`src/${dir}/*/*.ts`], rules: restricted([noDomain(2), noTop(2)]) })),
  // Each domain: other domains through their index.ts, nothing from the top.
  ...DOMAINS.map((domain) => ({ files: [`src/${domain}/*.ts`], rules: restricted([onlyIndex(up(1), domain), noTop(1)]) })),
  ...DOMAINS.map((domain) => ({ files: [`src/${domain}/*/*.ts`], rules: restricted([onlyIndex(up(2), domain), noTop(2)]) })),
  ...DOMAINS.map((domain) => ({ files: [`src/${domain}/*/*/*.ts`], rules: restricted([onlyIndex(up(3), domain), noTop(3)]) })),
  // The top and the job registry: domains through their index.ts too.
  { files: ['src/*.ts'], ignores: CORE_FILES, rules: restricted([onlyIndex(up(0))]) },
  { files: ['jobs/*.ts'], rules: restricted([onlyIndex('\\.\\./src/')]) },
  // The queue facade is the only door to Agenda (src/queue.ts).
  { files: ['src/**/*.ts', 'jobs/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'], ignores: [QUEUE_FACADE], rules: { ...agendaImports, ...syntax(QUEUE_SYNTAX) } },
  // A collection is declared (a typed db.collection<Doc>(NAME)) only in its owner's models.ts.
  {
    files: ['src/**/*.ts'],
    ignores: [QUEUE_FACADE, 'src/**/models.ts'],
    rules: { ...syntax([...QUEUE_SYNTAX, COLLECTION_OUTSIDE_MODELS, AGENDA_COLLECTION]) },
  },
  { files: ['src/**/models.ts', 'jobs/**/*.ts'], rules: { ...syntax([...QUEUE_SYNTAX, AGENDA_COLLECTION]) } },
  {
    // With the type checker (issue 21, part 6): no open string indexes a plain object (tools/eslint/no-open-key-lookup.js).
    files: ['src/**/*.ts', 'jobs/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { emporium },
    rules: { 'emporium/no-open-key-lookup': 'error' },
  },
  {
    // Tests read untyped JSON replies and use chai's property assertions; they may reach into any file.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-expressions': 'off',
    },
  },
);
