import type { ReactNode } from "react";
import { PartnerLinkControl } from "@/components/portal-workspace/partner-link-control";
import { PortalHeader } from "@/components/portal-workspace/portal-header";
import { NavTabs } from "@/components/ui/nav-tabs";
import { mayOrg, mayPortal } from "@/lib/access/policy";
import { unreadMessageCount } from "@/lib/messages/thread";
import { refreshPartnerLinkIfStale } from "@/lib/partner/verify-link";
import { listWorkflowStates } from "@/lib/workflow/list-workflow-states";
import { portalPath, portalViewPath } from "@/lib/links";
import { loadMemberPortal } from "./load-portal";
import { setPartnerIdAction } from "./partner-actions";
import { setArchivedAction, setTagsAction, setWorkflowStateAction } from "./portal-actions";

type Params = { orgId: string; portalId: string };

/** The member workspace of one portal: its header (name, state, tags, archive) and its tabs. */
export default async function PortalLayout({ children, params }: { children: ReactNode; params: Promise<Params> }) {
  const { orgId, portalId } = await params;
  const { viewer, portal } = await loadMemberPortal(orgId, portalId);
  const [states, partner, unread] = await Promise.all([
    listWorkflowStates({ viewer }),
    refreshPartnerLinkIfStale({ viewer, portalId }),
    unreadMessageCount({ viewer, portalId }),
  ]);
  // A template has no client: no guests and no messages (docs/requests.md: what portals copy from it).
  const clientTabs = portal.isTemplate
    ? []
    : [
        { href: portalViewPath(orgId, portalId, "messages"), label: "Messages", count: unread > 0 ? unread : undefined },
        { href: portalViewPath(orgId, portalId, "guests"), label: "Guests" },
      ];
  const tabs = [
    { href: portalPath(orgId, portalId), label: "Files", matchPrefix: `/org/${orgId}/vault/${portalId}/folder/` },
    { href: portalViewPath(orgId, portalId, "tasks"), label: "Tasks", count: portal.openTaskCount },
    ...clientTabs,
    { href: portalViewPath(orgId, portalId, "history"), label: "History" },
    { href: portalViewPath(orgId, portalId, "deleted"), label: "Recently deleted" },
    ...(mayOrg(viewer, "deletePortal") ? [{ href: portalViewPath(orgId, portalId, "settings"), label: "Settings" }] : []),
  ];

  return (
    <div className="space-y-6">
      <PortalHeader
        portal={portal}
        states={states}
        badge={
          partner.connected && mayPortal(viewer, portalId, "update") ? (
            <PartnerLinkControl
              portalId={portalId}
              partnerId={portal.externalSystemIds.partner ?? Object.entries(portal.externalSystemIds).find(([k]) => k.toLowerCase() === "partner")?.[1] ?? null}
              link={partner.link}
              action={setPartnerIdAction.bind(null, orgId)}
            />
          ) : null
        }
        actions={{
          setWorkflowState: setWorkflowStateAction.bind(null, orgId),
          setTags: setTagsAction.bind(null, orgId),
          setArchived: setArchivedAction.bind(null, orgId),
        }}
      />
      <NavTabs label="Portal views" tabs={tabs} />
      <div>{children}</div>
    </div>
  );
}
