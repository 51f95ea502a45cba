import { apiBookkeepingPurge } from "@/inngest/functions/api-bookkeeping-purge";
import { authRecordsPurge } from "@/inngest/functions/auth-records-purge";
import { bulkRequest } from "@/inngest/functions/bulk-request";
import { dailyDigest } from "@/inngest/functions/daily-digest";
import { deletedFilesPurge } from "@/inngest/functions/deleted-files-purge";
import { eventsRelaySweep } from "@/inngest/functions/events-relay-sweep";
import { notifyMessagePosted } from "@/inngest/functions/notify-message-posted";
import { notifyPortalUsers } from "@/inngest/functions/notify-portal-users";
import { notifyTaskCreated } from "@/inngest/functions/notify-task-created";
import { partnerPush, partnerPushPlan, partnerVerifyLink } from "@/inngest/functions/partner";
import { pendingUploadsCleanup } from "@/inngest/functions/pending-uploads-cleanup";
import { recurringRequests } from "@/inngest/functions/recurring-requests";
import { sendEmailFunction } from "@/inngest/functions/send-email";
import { signingKeysRetire } from "@/inngest/functions/signing-keys-retire";
import { taskReminders } from "@/inngest/functions/task-reminders";
import { webhookDeliveriesPurge } from "@/inngest/functions/webhook-deliveries-purge";
import { webhookDelivery } from "@/inngest/functions/webhook-delivery";
import { webhookDeliveryFailed } from "@/inngest/functions/webhook-delivery-failed";
import { webhookFanOut } from "@/inngest/functions/webhook-fan-out";

/** Every function the app serves at /api/inngest. */
export const functions = [
  eventsRelaySweep,
  apiBookkeepingPurge,
  authRecordsPurge,
  signingKeysRetire,
  webhookFanOut,
  webhookDelivery,
  webhookDeliveryFailed,
  webhookDeliveriesPurge,
  pendingUploadsCleanup,
  deletedFilesPurge,
  taskReminders,
  sendEmailFunction,
  notifyPortalUsers,
  notifyTaskCreated,
  notifyMessagePosted,
  dailyDigest,
  partnerVerifyLink,
  partnerPushPlan,
  partnerPush,
  bulkRequest,
  recurringRequests,
];
