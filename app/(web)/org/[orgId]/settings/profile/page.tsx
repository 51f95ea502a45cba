import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { ActionForm } from "@/components/settings/action-form";
import { BrandColourField } from "@/components/settings/brand-colour-field";
import { LogoDropZone } from "@/components/settings/logo-drop-zone";
import { TimeZoneField } from "@/components/settings/time-zone-field";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { mayOrg } from "@/lib/access/policy";
import { findWebViewer } from "@/lib/web/web-viewer";
import { LOGO_MAX_BYTES } from "@/lib/organization/logo";
import { getOrgProfile } from "@/lib/organization/profile";
import { isTwoFactorRequired } from "@/lib/auth/require-two-factor";
import { defaultTimeZoneAction, logoAction, profileAction, requireTwoFactorAction } from "./actions";
import { SETTINGS_PAGES } from "@/components/settings/settings-pages";

export const metadata: Metadata = { title: SETTINGS_PAGES.profile.name };

export default async function ProfilePage({ params }: { params: Promise<{ orgId: string }> }) {
  const { orgId } = await params;
  const viewer = await findWebViewer(orgId, `/org/${orgId}/settings/profile`);
  if (!viewer || !mayOrg(viewer, "openSettings")) notFound();
  const profile = await getOrgProfile({ viewer });
  const admin = mayOrg(viewer, "manageOrganization");
  const twoFactorRequired = await isTwoFactorRequired(orgId);
  const api = profile.plan === "enterprise" && profile.apiEnabled;

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold">{SETTINGS_PAGES.profile.name}</h1>
      <Card title="Name and brand">
        {admin ? (
          <ActionForm action={profileAction.bind(null, orgId)} submitLabel="Save profile">
            <Input label="Organization name" id="org-name" name="name" defaultValue={profile.name} required maxLength={200} />
            <BrandColourField id="org-brand" name="brandColor" value={profile.brandColor ?? ""} />
          </ActionForm>
        ) : (
          <dl className="text-sm">
            <dt className="font-medium">Name</dt>
            <dd>{profile.name}</dd>
          </dl>
        )}
      </Card>
      <Card title="Default time zone">
        {admin ? (
          <ActionForm action={defaultTimeZoneAction.bind(null, orgId)} submitLabel="Save time zone">
            <TimeZoneField
              id="org-time-zone"
              name="defaultTimeZone"
              label="Default time zone"
              value={profile.defaultTimeZone}
              hint="For emails and daily digests to people who have not chosen a time zone, and for their pages until their browser's is known. Each person can choose their own in My notifications."
            />
          </ActionForm>
        ) : (
          <p className="text-sm" data-testid="org-time-zone">
            {profile.defaultTimeZone}
          </p>
        )}
      </Card>
      <Card title="Two-factor authentication">
        <div className="space-y-3 text-sm">
          <p data-testid="two-factor-rule">
            {twoFactorRequired
              ? "Required: members and admins without two-factor authentication are asked to turn it on before they can continue. Guests are not asked."
              : "Optional: each member chooses."}
          </p>
          {admin ? (
            <ActionForm
              action={requireTwoFactorAction.bind(null, orgId)}
              submitLabel={twoFactorRequired ? "Make two-factor optional" : "Require two-factor for members"}
              variant="secondary"
            >
              <input type="hidden" name="required" value={twoFactorRequired ? "off" : "on"} />
            </ActionForm>
          ) : null}
        </div>
      </Card>
      <Card title="Logo">
        <div className="space-y-4">
          {profile.logoUrl ? (
            // eslint-disable-next-line @next/next/no-img-element -- our own route, already sized and cached; next/image adds nothing here
            <img src={profile.logoUrl} alt={`${profile.name} logo`} className="h-12 w-auto max-w-full" data-testid="org-logo-preview" />
          ) : (
            <p className="text-sm text-fg-muted">No logo yet: pages and emails show the organization&apos;s name.</p>
          )}
          {admin ? (
            <>
              <ActionForm action={logoAction.bind(null, orgId)} submitLabel="Upload logo">
                <input type="hidden" name="intent" value="upload" />
                <LogoDropZone
                  id="org-logo"
                  name="logo"
                  maxBytes={LOGO_MAX_BYTES}
                  hint={`A PNG or JPEG of at most ${LOGO_MAX_BYTES / 1024} KB, shown in the header of portal and guest pages and of emails (a wide logo about 160×40 pixels suits best).`}
                />
              </ActionForm>
              {profile.logoUrl ? (
                <ActionForm action={logoAction.bind(null, orgId)} submitLabel="Remove logo" variant="secondary">
                  <input type="hidden" name="intent" value="remove" />
                </ActionForm>
              ) : null}
            </>
          ) : null}
        </div>
      </Card>
      <Card title="Plan and API access">
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
          <dt className="font-medium">Plan</dt>
          <dd data-testid="org-plan">{profile.plan}</dd>
          <dt className="font-medium">API access</dt>
          <dd>{api ? <Badge tone="success">Enabled</Badge> : <Badge>Not available</Badge>}</dd>
        </dl>
        <p className="mt-3 text-sm text-fg-muted">
          The plan and API access are set by Client Portals support. Templates need a business or enterprise plan; the API needs enterprise with API access
          enabled.
        </p>
      </Card>
    </div>
  );
}
