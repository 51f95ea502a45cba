import type { ReactNode } from "react";
import { DetectTimeZone } from "@/components/detect-time-zone";
import { TimeZoneProvider } from "@/components/ui/time";
import { timeZoneOf } from "@/lib/time/settings";
import { detectedTimeZoneAction } from "./account/notifications/actions";

/**
 * The signed-in person's zone for the dates below: theirs, else the organization's default (else
 * UTC); without one of their own, their browser's is kept once and the page rendered again.
 */
export async function ViewerTimeZone({ userId, orgId, children }: { userId: string | null; orgId?: string; children: ReactNode }) {
  const { zone, saved } = await timeZoneOf({ userId, orgId });
  return (
    <TimeZoneProvider zone={zone}>
      {userId && !saved ? <DetectTimeZone save={detectedTimeZoneAction} shown={zone} /> : null}
      {children}
    </TimeZoneProvider>
  );
}
