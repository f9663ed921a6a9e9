/**
 * Requests to the outside world (core: imports no domain). `post` sends one POST with the
 * platform's rules for it (connect and total timeouts, no redirects, a 1 KiB response preview,
 * Retry-After); `targets.ts` holds the rules for a target a merchant or an app chose (URL
 * rules, address classes, the allow-list, and the delivery-time check `post` applies with
 * `guard`). Webhook deliveries and the message relay send through it.
 */
export { get, post, type FailureTexts, type PostOptions, type SendResult } from './sender.js';
export {
  MAX_TARGET_URL_LENGTH,
  addressRulesApply,
  checkResolvedAddress,
  checkTargetUrl,
  checkUrlShape,
  classifyAddress,
  guardTarget,
  isLoopbackHost,
  normalizeHost,
  parseIPv4,
  parseIPv6,
  type AddressClass,
  type AddressVerdict,
  type Resolver,
  type TargetVerdict,
} from './targets.js';
