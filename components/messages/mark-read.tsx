"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";

/** How long the unread messages stay marked once the thread is on screen. */
const READ_AFTER_MS = 1500;

/**
 * Marks the thread read up to its newest message once the thread has been on screen for a
 * moment (so the "New" markers are seen before they go), then refreshes the page: the markers,
 * the tab's count and the inbox's count follow.
 */
export function MarkThreadRead({
  portalId,
  until,
  action,
}: {
  portalId: string;
  until: string;
  action: (state: Record<string, never>, data: FormData) => Promise<unknown>;
}) {
  const ref = useRef<HTMLSpanElement>(null);
  const router = useRouter();
  useEffect(() => {
    const el = ref.current?.parentElement;
    if (!el) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting) || timer) return;
      timer = setTimeout(async () => {
        const data = new FormData();
        data.set("portalId", portalId);
        data.set("until", until);
        await action({}, data);
        router.refresh();
      }, READ_AFTER_MS);
    });
    observer.observe(el);
    return () => {
      observer.disconnect();
      if (timer) clearTimeout(timer);
    };
  }, [portalId, until, action, router]);
  return <span ref={ref} hidden />;
}
