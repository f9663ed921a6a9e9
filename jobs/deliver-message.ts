import { DeliverMessagePayload, deliverMessage } from '../src/messages/index.js';
import type { JobHandler } from './types.js';

export const deliverMessageJob: JobHandler = {
  name: 'messages.deliver',
  concurrency: 10,
  async handle(platform, data) {
    const { message_id } = DeliverMessagePayload.parse(data);
    return { delivery: await deliverMessage(platform, message_id) };
  },
};
