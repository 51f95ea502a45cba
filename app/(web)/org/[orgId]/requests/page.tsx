import { Send } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { ROW_LINK } from "@/components/ui/row-link";
import { Table, Td, Th } from "@/components/ui/table";
import { mayOrg } from "@/lib/access/policy";
import { findWebViewer } from "@/lib/web/web-viewer";
import { listBulkRequests } from "@/lib/requests/bulk-progress";
import { Time } from "@/components/ui/time";

export const metadata: Metadata = { title: "Bulk requests" };

export default async function BulkRequestsPage({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  const viewer = await findWebViewer(orgId);
  if (!viewer || !mayOrg(viewer, "sendBulkRequests")) notFound();
  const rows = await listBulkRequests({ viewer });
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-semibold">Bulk requests</h1>
      {rows.length === 0 ? (
        <EmptyState icon={Send} title="No bulk requests yet">
          Select portals in the{" "}
          <Link className="text-brand-ink underline" href={`/org/${orgId}`}>
            portal list
          </Link>{" "}
          (or filter it), then use “Send request” to ask all of them for the same thing at once.
        </EmptyState>
      ) : (
        <Table caption="Bulk requests">
          <thead>
            <tr>
              <Th>Request</Th>
              <Th>Status</Th>
              <Th className="text-right">Sent / skipped / failed</Th>
              <Th>Created</Th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line-soft">
            {rows.map((r) => (
              <tr key={r.id} data-testid="bulk-row">
                <Td>
                  <Link className={ROW_LINK} href={`/org/${orgId}/requests/${r.id}`}>
                    {r.title}
                  </Link>
                </Td>
                <Td>
                  <Badge tone={r.status === "running" ? "info" : r.status === "cancelled" ? "warning" : "success"}>
                    {r.status === "running" ? "Sending" : r.status === "cancelled" ? "Cancelled" : "Finished"}
                  </Badge>
                </Td>
                <Td className="text-right tabular-nums whitespace-nowrap">
                  {r.counts.sent} / {r.counts.skipped} / {r.counts.failed} of {r.counts.total}
                </Td>
                <Td className="whitespace-nowrap">
                  <Time value={r.createdAt} />
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </div>
  );
}
