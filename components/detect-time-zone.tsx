"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * For a signed-in person without a zone of their own: hands the browser's zone to `save` once
 * (which keeps it unless one was chosen meanwhile), then renders the page again in it when it
 * differs from `shown`, the zone the page was written in.
 */
export function DetectTimeZone({ save, shown }: { save: (zone: string) => Promise<boolean>; shown: string }) {
  const router = useRouter();
  useEffect(() => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!zone) return;
    void save(zone).then((kept) => {
      if (kept && zone !== shown) router.refresh();
    });
  }, [save, shown, router]);
  return null;
}
