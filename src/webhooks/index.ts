export { webhookIndexes } from './store.js';
export { presentSubscription, type SubscriptionView, type SubscriptionWithSecret } from './present.js';
export {
  checkResolvedAddress,
  checkTargetUrl,
  classifyAddress,
  isLoopbackHost,
  type AddressClass,
  type AddressVerdict,
  type Resolver,
  type TargetVerdict,
} from './targets.js';
export { MAX_SUBSCRIPTIONS_PER_STORE } from './subscriptions.js';
