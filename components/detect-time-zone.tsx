"use client";

import { useRouter } from "next/navigation";
import { useEffect } from "react";

/**
 * For a signed-in person without a zone of their own: hands the browser's zone to `save` once
 * (which keeps it unless one was chosen meanwhile), then renders the page again in it.
 */
export function DetectTimeZone({ save }: { save: (zone: string) => Promise<boolean> }) {
  const router = useRouter();
  useEffect(() => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!zone) return;
    void save(zone).then((kept) => {
      if (kept) router.refresh();
    });
  }, [save, router]);
  return null;
}
