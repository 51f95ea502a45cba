import { PortalMessages } from "@/components/messages/portal-messages";
import { mayPortal } from "@/lib/access/policy";
import { listMessages } from "@/lib/messages/thread";
import { getOrgProfile } from "@/lib/organization/profile";
import { portalViewPath } from "@/lib/links";
import { orNotFound } from "@/lib/web/or-not-found";
import { fileActions } from "../bind-file-actions";
import { loadMemberPortal, tabMetadata } from "../load-portal";
import { markThreadReadAction, postMessageAction } from "../message-actions";

export const generateMetadata = tabMetadata("Messages");

type Params = { orgId: string; portalId: string };

/** The portal's thread with its clients, for the firm: read, answer, attach files of the portal. */
export default async function PortalMessagesPage({ params, searchParams }: { params: Promise<Params>; searchParams: Promise<{ before?: string }> }) {
  const { orgId, portalId } = await params;
  const { before } = await searchParams;
  const { viewer } = await loadMemberPortal(orgId, portalId);
  const [{ messages, older }, profile] = await Promise.all([orNotFound(listMessages({ viewer, portalId, before })), getOrgProfile({ viewer })]);
  const base = portalViewPath(orgId, portalId, "messages");

  return (
    <section aria-labelledby="messages-heading" className="mx-auto max-w-3xl space-y-4">
      <h2 id="messages-heading" className="text-lg font-semibold">
        Messages with the client
      </h2>
      <p className="text-sm text-fg-muted">
        The portal&apos;s guests read these on their portal page and get an email for each new message (as they chose in their notifications). Files you attach
        are saved in the portal&apos;s top folder.
      </p>
      <PortalMessages
        orgId={orgId}
        portalId={portalId}
        files={fileActions(orgId)}
        messages={messages}
        olderHref={older ? `${base}?before=${older}` : null}
        canDownload
        canAttach={mayPortal(viewer, portalId, "upload")}
        firmName={profile.name}
        emptyHint="Write the first message: the portal's guests get it by email and on their portal page."
        to="The client"
        post={postMessageAction.bind(null, orgId)}
        markRead={markThreadReadAction.bind(null, orgId)}
      />
    </section>
  );
}
