import { ClipboardList, Users } from "lucide-react";
import { ScheduleDialog } from "@/components/requests/schedule-dialog";
import { RecurringList, TemplateRequestList } from "@/components/requests/schedule-lists";
import Link from "next/link";
import { RemindersBadge, ReviewBadge, StatusBadge } from "@/components/tasks/task-badges";
import { ACTION_LABELS } from "@/components/tasks/labels";
import { CreateTaskDialog } from "@/components/tasks/task-form-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { ROW_LINK } from "@/components/ui/row-link";
import { toApiActionType } from "@/lib/tasks/action-types";
import { listRecurringRequests } from "@/lib/requests/recurring-requests";
import { listRequestDocuments } from "@/lib/requests/request-documents";
import { listTemplateRequests } from "@/lib/requests/template-requests";
import { listPortalTasks } from "@/lib/tasks/list-portal-tasks";
import { listAssigneeOptions } from "@/lib/tasks/task-panel-data";
import { loadMemberPortal, tabMetadata } from "../../load-portal";
import { orNotFound } from "@/lib/web/or-not-found";
import { addTemplateRequestAction, changeRecurringRequestAction, createRecurringRequestAction, removeTemplateRequestAction } from "../../request-actions";
import { createTaskAction } from "../../task-actions";
import { portalPdfs } from "../load-pdfs";
import { fileActions } from "@/app/(web)/org/[orgId]/vault/[portalId]/bind-file-actions";
import { Time } from "@/components/ui/time";

export const generateMetadata = tabMetadata("Tasks");

type Params = { orgId: string; portalId: string };

export default async function TasksPage({ params }: { params: Promise<Params> }) {
  const { orgId, portalId } = await params;
  const { viewer, portal } = await loadMemberPortal(orgId, portalId);
  const template = portal.isTemplate;
  const [{ items }, options, pdfs, documents, schedules, requestList] = await orNotFound(
    Promise.all([
      listPortalTasks({ viewer, portalId }),
      listAssigneeOptions({ viewer, portalId }),
      portalPdfs(viewer, portalId),
      listRequestDocuments({ viewer }),
      template ? Promise.resolve([]) : listRecurringRequests({ viewer, portalId }),
      template ? listTemplateRequests({ viewer, portalId }) : Promise.resolve([]),
    ]),
  );
  const now = new Date();
  // Open first, soonest due first (no due date last), then the newest.
  const tasks = [...items].sort(
    (a, b) =>
      Number(a.status === "Done") - Number(b.status === "Done") ||
      (a.dueDate?.getTime() ?? Infinity) - (b.dueDate?.getTime() ?? Infinity) ||
      b.createdAt.getTime() - a.createdAt.getTime(),
  );
  const create = (
    <CreateTaskDialog
      files={fileActions(orgId)}
      portalId={portalId}
      action={createTaskAction.bind(null, orgId)}
      guests={options.guests}
      members={options.members}
      pdfs={pdfs}
    />
  );

  return (
    <section aria-labelledby="tasks-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="tasks-heading" className="text-lg font-semibold">
          Tasks
        </h2>
        {create}
      </div>
      {tasks.length === 0 ? (
        <EmptyState icon={ClipboardList} title="No tasks yet">
          Create a task to ask the client for files, answers, a signature or a form, with a due date and reminders.
        </EmptyState>
      ) : (
        <ul className="divide-y divide-line rounded-lg border border-line bg-surface" data-testid="task-list">
          {tasks.map((t) => (
            <li key={t.id} className="flex flex-wrap items-start justify-between gap-2 px-4 py-3" data-testid="task-row">
              <div className="min-w-0 space-y-1">
                <Link href={`/org/${orgId}/vault/${portalId}/tasks/${t.id}`} className={`${ROW_LINK} break-words`}>
                  {t.title}
                </Link>
                <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-fg-muted">
                  <span>{ACTION_LABELS[toApiActionType(t.actionType)]}</span>
                  {t.dueDate ? (
                    <span>
                      Due <Time value={t.dueDate} />
                    </span>
                  ) : (
                    <span>No due date</span>
                  )}
                  {t.assignees.length > 0 ? (
                    <span className="inline-flex items-center gap-1">
                      <Users aria-hidden size={12} />
                      {t.assignees.map((a) => a.name ?? a.email).join(", ")}
                    </span>
                  ) : (
                    <span>Unassigned</span>
                  )}
                  {t.files.length > 0 ? <span>{t.files.length === 1 ? "1 file" : `${t.files.length} files`}</span> : null}
                </p>
              </div>
              <div className="flex flex-wrap gap-1">
                {t.sendReminder && t.status === "Open" ? <RemindersBadge /> : null}
                <ReviewBadge task={t} />
                <StatusBadge status={t.status} dueDate={t.dueDate} now={now} />
              </div>
            </li>
          ))}
        </ul>
      )}
      <section aria-labelledby="schedules-heading" className="space-y-3 pt-2">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="schedules-heading" className="text-lg font-semibold">
            {template ? "Request list" : "Recurring requests"}
          </h2>
          <ScheduleDialog
            portalId={portalId}
            action={(template ? addTemplateRequestAction : createRecurringRequestAction).bind(null, orgId)}
            documents={documents}
            template={template}
          />
        </div>
        {template ? (
          <TemplateRequestList portalId={portalId} rows={requestList} remove={removeTemplateRequestAction.bind(null, orgId)} />
        ) : (
          <RecurringList portalId={portalId} rows={schedules} change={changeRecurringRequestAction.bind(null, orgId)} />
        )}
      </section>
    </section>
  );
}
