export { SWEEPS, type SweepName } from './service.js';
