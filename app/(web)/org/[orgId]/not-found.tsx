import Link from "next/link";

// Inside an organization: rendered within its layout, so the header and navigation stay.
export default function OrgNotFound() {
  return (
    <div className="mx-auto max-w-md py-16 text-center">
      {/* Not-found pages take no metadata: React puts this title in the head. */}
      <title>Not found · Client Portals</title>
      <h1 className="text-xl font-semibold">Not found</h1>
      <p className="mt-2 text-slate-600">This page does not exist, or you do not have access to it.</p>
      <Link className="mt-4 inline-block text-brand underline" href="/">Go to your portals</Link>
    </div>
  );
}
