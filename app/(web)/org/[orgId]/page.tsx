import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { findWebViewer } from "@/lib/access/web-viewer";
import { listPortals } from "@/lib/portals/list-portals";
import { portalPath } from "@/lib/portals/links";

export const metadata: Metadata = { title: "Portals" };

export default async function PortalListPage({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  const viewer = await findWebViewer(orgId);
  if (!viewer) notFound();
  const { items: portals } = await listPortals({ viewer });

  return (
    <div>
      <h1 className="mb-6 text-2xl font-semibold">Portals</h1>
      {portals.length === 0 ? (
        <p className="text-slate-600">No portals yet.</p>
      ) : (
        // On a phone the table scrolls inside its box; the page itself never gets wider than the screen.
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="w-full text-sm">
            <thead className="bg-slate-100 text-left text-slate-600">
              <tr>
                <th className="px-4 py-2">Name</th>
                <th className="px-4 py-2">Workflow state</th>
                <th className="hidden px-4 py-2 sm:table-cell">Tags</th>
                <th className="px-4 py-2">Status</th>
              </tr>
            </thead>
            <tbody>
              {portals.map((p) => (
                <tr key={p.id} className="border-t border-slate-100" data-testid="portal-row">
                  <td className="px-4 py-2">
                    <Link className="font-medium text-brand hover:underline" href={portalPath(orgId, p.id)}>
                      {p.name}
                    </Link>
                  </td>
                  <td className="px-4 py-2">{p.workflowState?.name ?? "—"}</td>
                  <td className="hidden px-4 py-2 sm:table-cell">{p.tags.join(", ")}</td>
                  <td className="px-4 py-2">{p.archived ? "Archived" : "Active"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
