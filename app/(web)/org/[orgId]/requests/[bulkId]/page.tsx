import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { AutoRefresh } from "@/components/requests/auto-refresh";
import { ActionForm } from "@/components/settings/action-form";
import { ACTION_LABELS } from "@/components/tasks/labels";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Progress } from "@/components/ui/progress";
import { ROW_LINK } from "@/components/ui/row-link";
import { Table, Td, Th } from "@/components/ui/table";
import { mayOrg } from "@/lib/access/policy";
import { findWebViewer } from "@/lib/web/web-viewer";
import { isAppError } from "@/lib/errors";
import { getBulkRequest } from "@/lib/requests/bulk-progress";
import { cancelBulkRequestAction } from "../actions";
import { Time } from "@/components/ui/time";

export const metadata: Metadata = { title: "Bulk request" };

const REASONS: Record<string, string> = {
  no_guests: "The portal has no guests",
  portal_gone: "The portal was deleted or made a template",
  cancelled: "Cancelled before it was sent",
};
const STATUS_TONE: Record<string, BadgeTone> = { sent: "success", skipped: "warning", failed: "danger", pending: "neutral" };

export default async function BulkRequestPage({ params }: { params: Promise<{ orgId: string; bulkId: string }> }) {
  const { orgId, bulkId } = await params;
  const viewer = await findWebViewer(orgId);
  if (!viewer || !mayOrg(viewer, "sendBulkRequests")) notFound();
  const bulk = await getBulkRequest({ viewer, bulkRequestId: bulkId }).catch((e: unknown) => {
    if (isAppError(e) && e.code === "not_found") notFound();
    throw e;
  });
  const { counts } = bulk;
  const done = counts.total - counts.pending;
  const percent = counts.total === 0 ? 100 : Math.round((done / counts.total) * 100);
  const running = bulk.status === "running";

  return (
    <div className="space-y-5">
      <AutoRefresh active={running} />
      <p className="text-sm">
        <Link className="text-brand-ink underline" href={`/org/${orgId}/requests`}>
          All bulk requests
        </Link>
      </p>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold break-words">{bulk.spec.title}</h1>
          <p className="text-sm text-fg-muted">
            {ACTION_LABELS[bulk.spec.action_type]} · sent <Time value={bulk.sentAt} />
          </p>
        </div>
        {running ? (
          <ActionForm
            action={cancelBulkRequestAction.bind(null, orgId)}
            submitLabel="Cancel sending"
            variant="secondary"
            confirm={{
              title: "Cancel this bulk request?",
              description: "Portals not reached yet will not get the request. Tasks already sent stay.",
              confirmLabel: "Cancel sending",
            }}
          >
            <input type="hidden" name="bulkRequestId" value={bulk.id} />
          </ActionForm>
        ) : null}
      </div>
      <section aria-labelledby="progress-heading" className="space-y-3 rounded-lg border border-line bg-surface p-4">
        <h2 id="progress-heading" className="flex flex-wrap items-center gap-2 font-semibold">
          Progress
          <Badge tone={running ? "info" : bulk.status === "cancelled" ? "warning" : "success"}>
            {running ? "Sending" : bulk.status === "cancelled" ? "Cancelled" : "Finished"}
          </Badge>
        </h2>
        <Progress value={percent} label="Portals handled" tone={counts.failed > 0 ? "danger" : running ? "brand" : "success"} />
        <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4" data-testid="bulk-counts" aria-live="polite">
          {(
            [
              ["Sent", counts.sent, "sent"],
              ["Skipped", counts.skipped, "skipped"],
              ["Failed", counts.failed, "failed"],
              ["Waiting", counts.pending, "pending"],
            ] as const
          ).map(([label, value, key]) => (
            <div key={key}>
              <dt className="text-fg-muted">{label}</dt>
              <dd className="text-xl font-semibold tabular-nums" data-testid={`bulk-${key}`}>
                {value}
              </dd>
            </div>
          ))}
        </dl>
        <p className="text-sm text-fg-muted">
          {done} of {counts.total} portals handled.
        </p>
      </section>
      <Table caption="Portals of this request">
        <thead>
          <tr>
            <Th>Portal</Th>
            <Th>Outcome</Th>
            <Th>Why</Th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line-soft">
          {bulk.items.map((i) => (
            <tr key={i.portalId} data-testid="bulk-item">
              <Td>
                {i.taskId ? (
                  <Link className={ROW_LINK} href={`/org/${orgId}/vault/${i.portalId}/tasks/${i.taskId}`}>
                    {i.portalName}
                  </Link>
                ) : (
                  i.portalName
                )}
              </Td>
              <Td>
                <Badge tone={STATUS_TONE[i.status]}>{i.status === "pending" ? "Waiting" : i.status[0]!.toUpperCase() + i.status.slice(1)}</Badge>
              </Td>
              <Td className="text-fg-muted">{i.reason ? (REASONS[i.reason] ?? i.reason) : ""}</Td>
            </tr>
          ))}
        </tbody>
      </Table>
    </div>
  );
}
