import type { Metadata } from "next";
import { CheckCircle2, FileSignature, FolderOpen, ListChecks, MessageSquare, Undo2, Upload } from "lucide-react";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { DueDate, FileList, PortalSwitcher, ACTION_LABEL } from "@/components/guest-view/parts";
import { FillForm, MarkDoneForm, QuestionForm } from "@/components/guest-view/task-forms";
import { TaskList } from "@/components/guest-view/task-list";
import { TaskUpload } from "@/components/guest-view/task-upload";
import { FilePreview } from "@/components/files/file-preview";
import { previewFileOf } from "@/components/files/preview-file";
import { PortalMessages } from "@/components/messages/portal-messages";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { findWebViewer } from "@/lib/web/web-viewer";
import { getFilePreview } from "@/lib/files/file-url";
import { getGuestPortalView, listGuestHome, type GuestPortalView } from "@/lib/guests/guest-view";
import { isAppError } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { listMessages } from "@/lib/messages/thread";
import { fileDownloadPath, guestPortalPath } from "@/lib/links";
import { markThreadReadAction, postMessageAction } from "../../vault/[portalId]/message-actions";
import { answerQuestionAction, markDoneAction, submitFormAction } from "./actions";
import { fileActions } from "@/app/(web)/org/[orgId]/vault/[portalId]/bind-file-actions";
import { orNotFound } from "@/lib/web/or-not-found";
import { Time } from "@/components/ui/time";

type Params = { orgId: string; portalId: string };

/** The viewer and the portal as its client sees it, once per request; anything not theirs is not found. */
const load = cache(async (orgId: string, portalId: string) => {
  const viewer = await findWebViewer(orgId, guestPortalPath(orgId, portalId));
  if (!viewer) notFound();
  return { viewer, view: await orNotFound(getGuestPortalView({ viewer, portalId })) };
});

export async function generateMetadata({ params }: { params: Promise<Params> }): Promise<Metadata> {
  const { orgId, portalId } = await params;
  const { view } = await load(orgId, portalId);
  return { title: view.portal.name };
}

type OpenTask = GuestPortalView["openTasks"][number];

/** What the client is told after sending something: the firm looks at it, and email follows if needed. */
const nextStep = (orgName: string) => `${orgName} will look at it. If they need anything more, you get an email and it appears here again.`;

function TaskAction({ orgId, portalId, orgName, task, canUpload }: { orgId: string; portalId: string; orgName: string; task: OpenTask; canUpload: boolean }) {
  const next = nextStep(orgName);
  switch (task.actionType) {
    case "Question":
      return (
        <div className="space-y-4">
          <QuestionForm action={answerQuestionAction.bind(null, orgId)} portalId={portalId} taskId={task.id} next={next} />
          {canUpload ? (
            <details>
              <summary className="cursor-pointer text-sm font-medium text-brand-ink">Attach files to your answer (optional)</summary>
              <div className="mt-2 space-y-2">
                {task.files.length > 0 ? <p className="text-sm text-fg-2">Attached: {task.files.map((f) => f.name).join(", ")}</p> : null}
                <TaskUpload files={fileActions(orgId)} portalId={portalId} taskId={task.id} next="It is attached to your answer." />
              </div>
            </details>
          ) : null}
        </div>
      );
    case "FillForm":
      return <FillForm action={submitFormAction.bind(null, orgId)} portalId={portalId} taskId={task.id} fields={task.formFields} next={next} />;
    case "SignDocument":
      return task.documentFileId ? (
        <Link
          href={`${guestPortalPath(orgId, portalId)}/sign/${task.id}`}
          className="inline-flex w-full items-center justify-center gap-2 rounded-md bg-brand px-4 py-2 text-sm font-medium text-white hover:bg-brand/90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-ink sm:w-auto"
        >
          <FileSignature aria-hidden className="size-4" /> Review and sign
        </Link>
      ) : (
        <p className="text-sm text-fg-muted">The firm has not added the document yet. You will be able to sign it here once they do.</p>
      );
    case "FileRequest":
      return <FileRequestPart orgId={orgId} portalId={portalId} task={task} canUpload={canUpload} next={next} />;
    default:
      return <MarkDoneForm action={markDoneAction.bind(null, orgId)} portalId={portalId} taskId={task.id} next={`${orgName} sees it as done.`} />;
  }
}

/** A task's row in the compact list: its title, then its type, due date and where it stands. */
function TaskSummary({ task }: { task: OpenTask }) {
  const status: { tone: BadgeTone; label: string } | null =
    task.review === "returned" ? { tone: "warning", label: "Sent back to you" } : task.files.length > 0 ? { tone: "info", label: "Started" } : null;
  return (
    <>
      <span className="block font-semibold text-fg">{task.title}</span>
      <span className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1">
        <Badge tone="brand">{ACTION_LABEL[task.actionType]}</Badge>
        <DueDate date={task.dueDate} />
        {status ? (
          <span data-testid="task-status">
            <Badge tone={status.tone}>{status.label}</Badge>
          </span>
        ) : null}
      </span>
    </>
  );
}

function FileRequestPart({ orgId, portalId, task, canUpload, next }: { orgId: string; portalId: string; task: OpenTask; canUpload: boolean; next: string }) {
  return (
    <div className="space-y-2">
      {task.files.length > 0 ? <p className="text-sm text-fg-2">Sent so far: {task.files.map((f) => f.name).join(", ")}</p> : null}
      {canUpload ? (
        <TaskUpload files={fileActions(orgId)} portalId={portalId} taskId={task.id} next={next} />
      ) : (
        <p className="text-sm text-fg-muted">Uploading is turned off for you in this portal. Ask the firm to turn it on, or send the files another way.</p>
      )}
    </div>
  );
}

export default async function GuestPortalPage({
  params,
  searchParams,
}: {
  params: Promise<Params>;
  searchParams: Promise<{ before?: string; file?: string }>;
}) {
  const { orgId, portalId } = await params;
  const { before, file } = await searchParams;
  const { viewer, view } = await load(orgId, portalId);
  // `?file=<id>`: that file's preview over the page, for a client who may download it. A link to
  // a file since deleted (or one they may not open) shows the page without it.
  const previewId = view.permissions.download && file && isUuid(file) ? file : null;
  const [home, thread, preview] = await Promise.all([
    listGuestHome(viewer.userId),
    listMessages({ viewer, portalId, before }),
    previewId
      ? getFilePreview({ viewer, portalId, fileId: previewId }).catch((error: unknown) => {
          if (isAppError(error)) return null;
          throw error;
        })
      : null,
  ]);
  const unread = thread.messages.filter((m) => m.unread).length;
  const switcher = home.map((p) => ({ orgId: p.orgId, orgName: p.orgName, portalId: p.portalId, portalName: p.portalName, openCount: p.openTasks.length }));

  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="text-sm text-fg-muted">{view.portal.orgName}</p>
          <h1 className="text-2xl font-semibold" data-testid="portal-name">
            {view.portal.name}
          </h1>
        </div>
        <PortalSwitcher portals={switcher} currentPortalId={portalId} />
      </div>

      <section aria-labelledby="todo-heading" className="space-y-3">
        <h2 id="todo-heading" className="flex items-center gap-2 text-lg font-semibold">
          <ListChecks aria-hidden className="size-5" /> Your tasks
          {view.openTasks.length > 0 ? <Badge tone="warning">{view.openTasks.length} to do</Badge> : null}
        </h2>
        {view.openTasks.length === 0 ? (
          <EmptyState icon={CheckCircle2} title="Nothing to do right now">
            When {view.portal.orgName} asks you for something, it appears here and you get an email.
          </EmptyState>
        ) : (
          <TaskList
            tasks={view.openTasks.map((task) => ({
              id: task.id,
              summary: <TaskSummary task={task} />,
              panel: (
                <>
                  {task.description ? <p className="text-sm whitespace-pre-line text-fg-2">{task.description}</p> : null}
                  {task.review === "returned" && task.reviewNote ? (
                    <div className="rounded-md border border-warning-line bg-warning-soft p-3 text-sm" data-testid="returned-note">
                      <p className="flex items-center gap-2 font-medium text-warning-strong">
                        <Undo2 aria-hidden className="size-4" /> {view.portal.orgName} sent this back
                      </p>
                      <p className="mt-1 whitespace-pre-line text-fg">{task.reviewNote}</p>
                    </div>
                  ) : null}
                  <TaskAction orgId={orgId} portalId={portalId} orgName={view.portal.orgName} task={task} canUpload={view.permissions.upload} />
                </>
              ),
            }))}
          />
        )}
      </section>

      {view.doneTasks.length > 0 ? (
        <section aria-labelledby="done-heading" className="space-y-3">
          <h2 id="done-heading" className="text-lg font-semibold">
            Done
          </h2>
          <ul className="divide-y divide-line-soft rounded-lg border border-line bg-surface px-4">
            {view.doneTasks.map((task) => (
              <li key={task.id} id={`task-${task.id}`} className="scroll-mt-4 space-y-2 py-3 text-sm" data-testid="guest-done-task">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <span className="flex items-center gap-2">
                    <CheckCircle2 aria-hidden className="size-4 text-success" />
                    <span className="font-medium text-fg">{task.title}</span>
                  </span>
                  <span className="text-fg-muted">
                    Done <Time value={task.completedAt} format="relative" />
                  </span>
                </div>
                <p className="text-fg-muted" data-testid="done-state">
                  {task.review === "accepted"
                    ? `Accepted by ${view.portal.orgName}. Nothing more to do.`
                    : task.actionType === "FileRequest" || task.actionType === "Question" || task.actionType === "FillForm"
                      ? `Sent. ${nextStep(view.portal.orgName)}`
                      : task.actionType === "SignDocument"
                        ? `Signed. ${view.portal.orgName} has the signed copy.`
                        : "Done."}
                </p>
                {task.actionType === "FileRequest" ? (
                  <>
                    {task.files.length > 0 ? <p className="text-fg-2">Sent: {task.files.map((f) => f.name).join(", ")}</p> : null}
                    {view.permissions.upload && task.review !== "accepted" ? (
                      <details>
                        <summary className="cursor-pointer font-medium text-brand-ink">Add more files to this request</summary>
                        <div className="mt-2">
                          <TaskUpload
                            files={fileActions(orgId)}
                            portalId={portalId}
                            taskId={task.id}
                            next={`Added to “${task.title}”. ${view.portal.orgName} sees it with the rest.`}
                          />
                        </div>
                      </details>
                    ) : null}
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section aria-labelledby="messages-heading" id="messages" className="scroll-mt-4 space-y-3">
        <h2 id="messages-heading" className="flex items-center gap-2 text-lg font-semibold">
          <MessageSquare aria-hidden className="size-5" /> Messages with {view.portal.orgName}
          {unread > 0 ? (
            <Badge tone="info" className="unread-count">
              {unread} new
            </Badge>
          ) : null}
        </h2>
        <PortalMessages
          orgId={orgId}
          portalId={portalId}
          files={fileActions(orgId)}
          messages={thread.messages}
          olderHref={thread.older ? `${guestPortalPath(orgId, portalId)}?before=${thread.older}#messages` : null}
          canDownload={view.permissions.download}
          canAttach={view.permissions.upload}
          firmName={view.portal.orgName}
          emptyHint={`Questions about this portal? Write to ${view.portal.orgName} here; you get an email when they answer.`}
          to={view.portal.orgName}
          post={postMessageAction.bind(null, orgId)}
          markRead={markThreadReadAction.bind(null, orgId)}
        />
      </section>

      <section aria-labelledby="files-heading" className="space-y-3">
        <h2 id="files-heading" className="flex items-center gap-2 text-lg font-semibold">
          <FolderOpen aria-hidden className="size-5" /> Files
        </h2>
        {!view.permissions.download ? (
          <p className="text-sm text-fg-muted">
            You can see these files; downloading them is turned off for this portal. Ask {view.portal.orgName} if you need a copy.
          </p>
        ) : null}
        {view.permissions.upload ? (
          <details className="rounded-lg border border-dashed border-line-strong bg-surface p-4" data-testid="send-files">
            <summary className="flex cursor-pointer items-center gap-2 font-medium text-brand-ink">
              <Upload aria-hidden className="size-4" /> Send other files to {view.portal.orgName}
            </summary>
            <p className="mt-2 text-sm text-fg-muted">For anything that no request above asks for. {view.portal.orgName} is told about new files.</p>
            <div className="mt-2">
              <TaskUpload files={fileActions(orgId)} portalId={portalId} taskId={null} next={`${view.portal.orgName} is told about it.`} />
            </div>
          </details>
        ) : null}
        {view.files.length === 0 ? (
          <EmptyState icon={FolderOpen} title="No files yet">
            Files you upload for a request, and files {view.portal.orgName} shares with you, appear here.
          </EmptyState>
        ) : (
          <div className="rounded-lg border border-line bg-surface px-4">
            <FileList orgId={orgId} portalId={portalId} files={view.files} canDownload={view.permissions.download} />
          </div>
        )}
      </section>
      {preview ? (
        <FilePreview file={previewFileOf(preview, fileDownloadPath(orgId, portalId, preview.id))} closeHref={guestPortalPath(orgId, portalId)} />
      ) : null}
    </div>
  );
}
