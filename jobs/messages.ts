import {
  DeliverMessage,
  RedispatchStrandedMessages,
  SweepOutboundMessages,
  deliverMessage,
  redispatchStrandedMessages,
  sweepExpiredMessages,
} from '../src/messages/index.js';
import { bindJob, bindSweep } from './types.js';

export const messageHandlers = [
  bindJob(DeliverMessage, async (platform, { message_id }) => ({ delivery: await deliverMessage(platform, message_id) })),
  bindSweep(SweepOutboundMessages, sweepExpiredMessages),
  bindSweep(RedispatchStrandedMessages, redispatchStrandedMessages),
];
