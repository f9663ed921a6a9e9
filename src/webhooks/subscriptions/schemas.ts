import { z } from 'zod';
import type { Events } from '../../events/index.js';
import { MAX_TARGET_URL_LENGTH } from '../../outbound/index.js';
import { updateBody } from '../../http/validate.js';

export const MAX_EVENT_TYPES = 50;
export const MAX_DESCRIPTION = 500;
/** Seven days: the longest a rotated-out secret keeps signing. */
export const MAX_GRACE_PERIOD_SECONDS = 7 * 24 * 3600;
export const DEFAULT_GRACE_PERIOD_SECONDS = 24 * 3600;

/** The shape only; the target rules (scheme, host, DNS) are the service's (targets.ts). */
const TargetUrl = z.string().min(1).max(MAX_TARGET_URL_LENGTH);

/**
 * Known event types or wildcards (`order.*`, `*`), 1 to 50, duplicates dropped (first kept).
 * Every unknown one is named in its own detail. The known types are the modules' (src/modules.ts).
 */
const eventTypesSchema = (events: Pick<Events, 'isPattern'>) =>
  z
    .array(z.string().max(100))
    .min(1, 'must name at least one event type')
    .max(MAX_EVENT_TYPES, `must name at most ${MAX_EVENT_TYPES} event types`)
    .superRefine((types, ctx) => {
      types.forEach((t, i) => {
        if (!events.isPattern(t)) {
          ctx.addIssue({ code: 'custom', path: [i], message: `${JSON.stringify(t)} is not a known event type or wildcard (docs/events.md)` });
        }
      });
    })
    .transform((types) => [...new Set(types)]);

/** Trimmed; empty means none. */
const Description = z
  .string()
  .trim()
  .max(MAX_DESCRIPTION)
  .nullable()
  .transform((d) => (d ? d : null));

/** The create and update bodies, which check event types against the platform's. */
export function subscriptionSchemas(events: Pick<Events, 'isPattern'>) {
  const EventTypes = eventTypesSchema(events);
  const fields = { target_url: TargetUrl, event_types: EventTypes, active: z.boolean(), description: Description };
  return {
    CreateSubscriptionBody: z.strictObject({ ...fields, active: fields.active.default(true), description: fields.description.default(null) }),
    UpdateSubscriptionBody: updateBody(fields, 'give at least one of target_url, event_types, active or description'),
  };
}
type Schemas = ReturnType<typeof subscriptionSchemas>;
export type CreateSubscriptionBody = z.infer<Schemas['CreateSubscriptionBody']>;
export type UpdateSubscriptionBody = z.infer<Schemas['UpdateSubscriptionBody']>;

export const RotateSecretBody = z.strictObject({
  grace_period_seconds: z.number().int().min(0).max(MAX_GRACE_PERIOD_SECONDS).default(DEFAULT_GRACE_PERIOD_SECONDS),
});
export type RotateSecretBody = z.infer<typeof RotateSecretBody>;
