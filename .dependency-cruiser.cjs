/**
 * `npm run lint` runs dependency-cruiser with this configuration beside ESLint: no import cycle
 * among the platform's own files, type-only imports included (they say what knows what). The
 * floors, what may import what, are ESLint's no-restricted-imports (eslint.config.js).
 * fixtures/lint/cycle holds a deliberate cycle that test/platform/architecture.test.ts cruises to show
 * the rule refuses one.
 */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'An import cycle: modules that need each other to load. Break it by moving the shared piece down a floor (docs/architecture.md, Modules).',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules|\\.localdb)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
