import type { Metadata } from "next";
import { AccountPage } from "@/components/account/account-page";
import { ACCOUNT_PAGES } from "@/components/account/account-pages";
import { ActionForm } from "@/components/settings/action-form";
import { TimeZoneField } from "@/components/settings/time-zone-field";
import { Card } from "@/components/ui/card";
import { requireUser } from "@/lib/auth/session";
import { getNotificationPreferences, NOTIFICATION_KINDS, type NotificationPreferenceKind } from "@/lib/notifications/preferences";
import { timeZoneOf } from "@/lib/time/settings";
import { notificationPreferencesAction, timeZoneAction } from "./actions";

export const metadata: Metadata = { title: ACCOUNT_PAGES.notifications.name };

const KINDS: Record<NotificationPreferenceKind, { label: string; hint: string }> = {
  uploads: { label: "Uploads", hint: "A file was uploaded to a portal you work in." },
  taskCompletions: { label: "Task completions", hint: "A task in one of your portals was completed." },
  reminders: { label: "Reminders", hint: "A task assigned to you is due soon or overdue." },
  invitations: { label: "Invitations", hint: "Someone accepted an invitation you sent, to a portal or to the organization." },
  requests: { label: "Requests for you", hint: "A firm asked you for something in a portal, or sent a request back to you with a reason." },
  messages: { label: "Messages", hint: "Someone wrote in a portal's messages: a client to the firm, or the firm to you." },
};
const MODES = [
  { value: "immediately", label: "Immediately" },
  { value: "digest", label: "Daily digest" },
  { value: "off", label: "Off" },
] as const;

/** Every signed-in user, guests included, chooses per kind of email: now, in a daily digest, or never. */
export default async function NotificationsPage() {
  const user = await requireUser("/account/notifications");
  const [prefs, { zone }] = await Promise.all([getNotificationPreferences(user.id), timeZoneOf({ userId: user.id })]);
  return (
    <AccountPage
      title={ACCOUNT_PAGES.notifications.name}
      intro={
        <>
          Choose which emails you get at {user.email}. Several uploads, requests or messages within a minute come as one email. The daily digest collects the
          day&apos;s updates in one email each morning (07:00 in your time zone). Invitations to new portals and sign-in links are always sent.
        </>
      }
    >
      <Card>
        <ActionForm action={notificationPreferencesAction} submitLabel="Save">
          {NOTIFICATION_KINDS.map((kind) => (
            <fieldset key={kind} className="border-b border-line-soft pb-4" data-testid={`notify-${kind}`}>
              <legend className="font-medium">{KINDS[kind].label}</legend>
              <p className="mb-2 text-sm text-fg-muted">{KINDS[kind].hint}</p>
              <div className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
                {MODES.map((m) => (
                  <label key={m.value} className="inline-flex items-center gap-2">
                    <input type="radio" name={kind} value={m.value} defaultChecked={prefs[kind] === m.value} className="size-4 accent-brand" />
                    {m.label}
                  </label>
                ))}
              </div>
            </fieldset>
          ))}
        </ActionForm>
      </Card>
      <Card title="Time zone">
        <ActionForm action={timeZoneAction} submitLabel="Save time zone">
          <TimeZoneField
            id="time-zone"
            name="timeZone"
            label="Your time zone"
            value={zone}
            hint="Dates and times on every page and in your emails are shown in it, and the daily digest arrives at 07:00 there. Type to search, e.g. Europe/London."
          />
        </ActionForm>
      </Card>
    </AccountPage>
  );
}
