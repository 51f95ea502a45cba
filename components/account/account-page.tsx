import type { ReactNode } from "react";

/** The frame of the user's own pages (/account/...) inside the signed-in header: the title and what it is about. */
export function AccountPage({ title, intro, children }: { title: string; intro: ReactNode; children: ReactNode }) {
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold">{title}</h1>
        <p className="mt-1 text-sm text-fg-muted">{intro}</p>
      </div>
      {children}
    </div>
  );
}
