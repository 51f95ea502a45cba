import { z } from "zod";
import { taskActionTypes, taskStatuses } from "./task-names";

// The one list of event types. Each schema holds only the event's own fields (spec section 6 and
// D21); the common webhook fields (org_id, portal_id, portal_name, external_system_ids, timestamp,
// event_id) are added at delivery time, so a portal renamed before delivery shows its current name.
// Schemas carry no transforms or defaults: Inngest's eventType() refuses schemas whose input and
// output types differ, and the stored row must be exactly what the caller meant.

const id = z.uuid();
const isoDateTime = z.iso.datetime({ offset: true });

export { taskActionTypes, taskStatuses };

export const eventDataSchemas = {
  "portal.created": z.strictObject({
    /** User id of the creator; null when the creator is gone. */
    created_by: z.string().nullable(),
    tags: z.array(z.string()),
    is_template: z.boolean(),
  }),
  "portal.workflow_changed": z.strictObject({
    workflow_state_id: id,
    workflow_state_name: z.string(),
    /** Null when the portal had no workflow state before. */
    previous_workflow_state_name: z.string().nullable(),
  }),
  "file.uploaded": z.strictObject({
    file_id: id,
    name: z.string(),
    extension: z.string(),
    size: z.int().nonnegative(),
    content_type: z.string(),
    uploaded_by: z.string().nullable(),
    uploaded_by_email: z.string().nullable(),
    uploaded_by_name: z.string().nullable(),
    /** Set when the file is attached to a task. */
    task_id: id.nullable(),
  }),
  "file.signed": z.strictObject({
    file_id: id,
    name: z.string(),
    task_id: id.nullable(),
    signed_by_email: z.string().nullable(),
    signed_by_name: z.string().nullable(),
    signed_at: isoDateTime,
  }),
  "task.created": z.strictObject({
    task_id: id,
    title: z.string(),
    action_type: z.enum(taskActionTypes),
    due_date: isoDateTime.nullable(),
    status: z.enum(taskStatuses),
  }),
  "task.completed": z.strictObject({
    task_id: id,
    action_type: z.enum(taskActionTypes),
    status: z.enum(taskStatuses),
    attached_files: z.array(z.strictObject({ file_id: id, name: z.string() })),
    /** Only for a File Request fulfilled by an upload: the completing file. */
    file_id: id.optional(),
  }),
  "guest.invited": z.strictObject({
    guest_email: z.email(),
    guest_name: z.string().nullable(),
    /** User id of the inviting member. */
    invited_by: z.string().nullable(),
    /** The guest's user id (what `assigned_guest_ids` takes); inviteGuests always records it, the schema also reads rows without it. */
    user_id: id.optional(),
  }),
  // Internal: never delivered to webhooks.
  /** An OutboundEmail row waits to be sent through SMTP (inngest/functions/send-email.ts). */
  "email.queued": z.strictObject({ email_id: id }),
  /** The partner id was cleared; the partner gets a `portal.unlinked` notice (spec section 6). */
  "portal.unlinked": z.strictObject({
    customer_id: z.string().regex(/^[0-9]{6}$/),
  }),
  /** A portal's partner id was saved or cleared; starts verification (spec partner_link.status). */
  "partner.link_changed": z.strictObject({
    customer_id: z
      .string()
      .regex(/^[0-9]{6}$/)
      .nullable(),
    previous_customer_id: z
      .string()
      .regex(/^[0-9]{6}$/)
      .nullable(),
  }),
  /**
   * A task's reminder schedule may have changed (created with reminders, due date or
   * send_reminder changed, completed, reopened, deleted): cancels the task's running reminder
   * run and, when the task still calls for reminders, starts a new one (D18).
   */
  "task.reminders_changed": z.strictObject({
    task_id: id,
    due_date: isoDateTime.nullable(),
    send_reminder: z.boolean(),
    status: z.enum(taskStatuses),
    deleted: z.boolean(),
  }),
  /**
   * A command to the job engine, not a fact: start one webhook delivery's attempt series
   * (inngest/functions/webhook-delivery.ts). Written by a redelivery in its transaction; the
   * webhook fan-out sends the same event directly from its Inngest step. Relayed as it is (no
   * envelope), under the id deliveryRequestId() gives it: a repeated send starts one run only.
   * `first_attempt` numbers the series' attempts in the delivery's log.
   */
  "webhook/delivery.requested": z.strictObject({
    delivery_id: id,
    /** The concurrency key: one webhook's deliveries queue behind each other, not behind others'. */
    webhook_id: id,
    first_attempt: z.int().positive(),
  }),
  /**
   * A command to the job engine: run one partner push's attempt series
   * (inngest/functions/partner-push.ts). Sent by the push planner from its step, and written by
   * a Resend in its transaction (one series per push row: a Resend makes a new row).
   */
  "partner/push.requested": z.strictObject({ push_id: id }),
  /**
   * A command to the job engine: send a bulk request to its portals
   * (inngest/functions/bulk-request.ts). Written with the bulk request in its transaction; one run
   * per bulk request, however often it is relayed.
   */
  "bulk-request/send.requested": z.strictObject({ bulk_request_id: id, org_id: id }),
  /**
   * A message was written in a portal's thread (lib/messages): the other side is emailed per
   * their `messages` choice (inngest/functions/notify-message-posted.ts). Not a webhook event.
   */
  "message.posted": z.strictObject({ message_id: id }),
} as const;

export type EventType = keyof typeof eventDataSchemas;

/** Event types relayed as commands: their own data only, under their own Inngest event id. */
export const commandEventIds: { [T in EventType]?: (data: EventData<T>) => string } = {
  "webhook/delivery.requested": (d) => deliveryRequestId(d.delivery_id, d.first_attempt),
  "partner/push.requested": (d) => partnerPushRequestId(d.push_id),
  "bulk-request/send.requested": (d) => `bulk-request-${d.bulk_request_id}`,
};

/** One run per push row, however often its start is sent. */
export function partnerPushRequestId(pushId: string): string {
  return `partner-push-${pushId}`;
}

/** Inngest drops an event whose id it has seen in the last 24 hours: one run per attempt series. */
export function deliveryRequestId(deliveryId: string, firstAttempt: number): string {
  return `webhook-delivery-${deliveryId}-${firstAttempt}`;
}
export type EventData<T extends EventType> = z.infer<(typeof eventDataSchemas)[T]>;

export const eventTypes = Object.keys(eventDataSchemas) as EventType[];

export { subscribableEventTypes, type SubscribableEventType } from "./subscribable";

export function isEventType(value: string): value is EventType {
  return Object.hasOwn(eventDataSchemas, value);
}

/** Fields the relay puts in front of the event's own data when handing it to Inngest. */
const envelope = z.object({
  /** The Event row id; also the Inngest event id, and `event_id` in webhook payloads (D21). */
  event_id: id,
  org_id: id,
  portal_id: id.nullable(),
  /**
   * Which optional consumers the event has, read by the relay when it hands the event over (one
   * statement with the claim): a connected partner integration, a guest of the event's portal who
   * accepted the invitation (whom a new request is emailed to), and whether webhook deliveries are
   * still to be made by the fan-out: never, as the relay's claim makes them itself at hand-off
   * (lib/events/dispatch-pending-events.ts) and the relay sends their starts with the event. The
   * fan-out, the partner plan and the clients' request notice are triggered only where it is not
   * false (their triggers' `if`), so an organization without partner, or a portal without
   * clients, starts no run of them (each run is calls of /api/inngest). Absent only on events
   * relayed by a version without routes (none was deployed); `clients` absent on events relayed
   * before it.
   */
  routes: z.object({ webhooks: z.boolean(), partner: z.boolean(), clients: z.boolean().optional() }).optional(),
});

function withEnvelope<S extends z.core.$ZodShape>(own: z.ZodObject<S>) {
  return envelope.extend(own.shape);
}

/** The `data` of each event as Inngest functions receive it: envelope plus the event's fields. */
export const relayedEventSchemas = {
  "portal.created": withEnvelope(eventDataSchemas["portal.created"]),
  "portal.workflow_changed": withEnvelope(eventDataSchemas["portal.workflow_changed"]),
  "file.uploaded": withEnvelope(eventDataSchemas["file.uploaded"]),
  "file.signed": withEnvelope(eventDataSchemas["file.signed"]),
  "task.created": withEnvelope(eventDataSchemas["task.created"]),
  "task.completed": withEnvelope(eventDataSchemas["task.completed"]),
  "guest.invited": withEnvelope(eventDataSchemas["guest.invited"]),
  "email.queued": withEnvelope(eventDataSchemas["email.queued"]),
  "portal.unlinked": withEnvelope(eventDataSchemas["portal.unlinked"]),
  "partner.link_changed": withEnvelope(eventDataSchemas["partner.link_changed"]),
  "task.reminders_changed": withEnvelope(eventDataSchemas["task.reminders_changed"]),
  "webhook/delivery.requested": eventDataSchemas["webhook/delivery.requested"],
  "partner/push.requested": eventDataSchemas["partner/push.requested"],
  "bulk-request/send.requested": eventDataSchemas["bulk-request/send.requested"],
  "message.posted": withEnvelope(eventDataSchemas["message.posted"]),
} as const satisfies Record<EventType, z.ZodObject>;
