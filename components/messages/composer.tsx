"use client";

import { Paperclip, Send, X } from "lucide-react";
import { useRouter } from "next/navigation";
import { useActionState, useState } from "react";
import type { FileActions } from "@/components/files/actions";
import { Uploader, type UploadedFile } from "@/components/files/uploader";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Textarea } from "@/components/ui/textarea";
import { useToast } from "@/components/ui/toast";
import type { FormAction, FormState } from "@/lib/web/form-state";

export type MessageFormState = FormState<{ body: string }> & { sentId?: string };

/**
 * Writing a message: the text, and files attached through the portal's upload flow (each is
 * uploaded to the portal first, then sent with the message, which links them). After sending, the
 * form empties and the thread refreshes; an error keeps the text and the attachments.
 */
export function MessageComposer({
  files: fileActions,
  portalId,
  action,
  canAttach,
  to,
}: {
  files: FileActions;
  portalId: string;
  action: FormAction<MessageFormState>;
  canAttach: boolean;
  /** Who reads it, for the toast: "Northwind Advisors", "the client". */
  to: string;
}) {
  const router = useRouter();
  const toast = useToast();
  const [files, setFiles] = useState<UploadedFile[]>([]);
  const [attaching, setAttaching] = useState(false);
  const [round, setRound] = useState(0);
  const [state, formAction, pending] = useActionState(async (prev: MessageFormState, data: FormData) => {
    const next = await action(prev, data);
    if (next.sentId) {
      toast("Message sent", { description: `${to} gets it in the portal and by email.` });
      setFiles([]);
      setAttaching(false);
      setRound((r) => r + 1);
      router.refresh();
    }
    return next;
  }, {});

  return (
    <form action={formAction} className="space-y-3" data-testid="message-composer">
      <input type="hidden" name="portalId" value={portalId} />
      {files.map((f) => (
        <input key={f.id} type="hidden" name="fileIds" value={f.id} />
      ))}
      {state.error ? <Alert>{state.error}</Alert> : null}
      <Textarea
        key={`body-${round}`}
        label="Your message"
        id={`message-body-${portalId}`}
        name="body"
        rows={3}
        defaultValue={state.sentId ? "" : (state.values?.body ?? "")}
        error={state.fieldErrors?.body ?? state.fieldErrors?.fileIds}
      />
      {files.length > 0 ? (
        <ul className="flex flex-wrap gap-2" aria-label="Attached files">
          {files.map((f) => (
            <li key={f.id} className="inline-flex items-center gap-1 rounded-full bg-muted py-1 pr-1 pl-3 text-sm text-fg" data-testid="attachment">
              <Paperclip aria-hidden className="size-3.5" /> {f.name}
              <Button variant="ghost" size="sm" aria-label={`Remove ${f.name}`} onClick={() => setFiles((c) => c.filter((x) => x.id !== f.id))}>
                <X aria-hidden className="size-3.5" />
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
      {canAttach && attaching ? (
        <Uploader key={`upload-${round}`} actions={fileActions} portalId={portalId} folderId={null} onUploaded={(f) => setFiles((c) => [...c, f])} />
      ) : null}
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
        <Button type="submit" disabled={pending} className="w-full sm:w-auto">
          <Send aria-hidden className="size-4" /> {pending ? "Sending…" : "Send message"}
        </Button>
        {canAttach && !attaching ? (
          <Button variant="secondary" onClick={() => setAttaching(true)} className="w-full sm:w-auto">
            <Paperclip aria-hidden className="size-4" /> Attach files
          </Button>
        ) : null}
      </div>
    </form>
  );
}
