export * from '../outbound/targets.js'; // moved to src/outbound (kept for test/webhook-targets.test.ts)
