import { DELIVER_MESSAGE, DeliverMessagePayload, deliverMessage } from '../src/messages/index.js';
import type { JobHandlers } from './types.js';

export const messageHandlers: JobHandlers = {
  async [DELIVER_MESSAGE](platform, data) {
    const { message_id } = DeliverMessagePayload.parse(data);
    return { delivery: await deliverMessage(platform, message_id) };
  },
};
