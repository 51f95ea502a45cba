import Link from "next/link";

/** The body of a not-found page: a heading, what it means and a way back. */
export function NotFoundMessage({ className, linkLabel }: { className: string; linkLabel: string }) {
  return (
    <div className={`mx-auto max-w-md px-4 text-center ${className}`}>
      {/* Not-found pages take no metadata: React puts this title in the head. */}
      <title>Not found · Client Portals</title>
      <h1 className="text-xl font-semibold">Not found</h1>
      <p className="mt-2 text-fg-muted">This page does not exist, or you do not have access to it.</p>
      <Link className="mt-4 inline-block text-brand-ink underline" href="/">
        {linkLabel}
      </Link>
    </div>
  );
}
