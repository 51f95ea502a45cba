import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { OAuthError } from "@/components/oauth/oauth-error";
import { ScopeCheckboxes } from "@/components/oauth/scope-checkboxes";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { mayOrg } from "@/lib/access/policy";
import { findUserViewer } from "@/lib/access/viewer";
import { requireUser } from "@/lib/auth/session";
import { checkAuthorizeRequest } from "@/lib/oauth/authorize";
import { consentOrganization } from "@/lib/oauth/clients/dynamic";
import { findClientProfile } from "@/lib/oauth/clients/profile";
import { mcpResource } from "@/lib/oauth/resource";
import { authorizeParamsFrom, authorizeQuery, authorizeRedirect, createConsentToken } from "@/lib/oauth/consent";
import { consentAction } from "./actions";

export const metadata: Metadata = { title: "Authorize application" };

export default async function ConsentPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  // The query is only a proposal: it is checked again exactly as /oauth/authorize checked it.
  const params = authorizeParamsFrom(query);
  const check = await checkAuthorizeRequest(params);
  if (check.kind === "error_page") return <OAuthError message={check.message} />;
  if (check.kind === "redirect_error") redirect(authorizeRedirect(check, params, true));
  const { request } = check;
  const { client } = request;

  const user = await requireUser(`/oauth/consent?${authorizeQuery(params)}`);
  // A registered MCP client without an organization yet is approved into the user's own.
  const org = await consentOrganization(client, user.id);
  const viewer = org ? await findUserViewer(user.id, org.id) : null;
  if (!org || !viewer || !mayOrg(viewer, "authorizeApps")) {
    const whose = client.orgName ?? "exactly one organization";
    return <OAuthError message={`Only members of ${whose} can authorize ${client.name}. You are signed in as ${user.email}.`} />;
  }
  const token = createConsentToken({ userId: user.id, request });
  const profile = await findClientProfile(client.id);
  const hidden = Object.entries(params).filter((e): e is [string, string] => typeof e[1] === "string");

  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col justify-center gap-6 px-4 py-8">
      <div className="flex flex-col items-center gap-3 text-center">
        {profile?.logoUrl ? (
          // The publisher's own https image, as given on API settings; not proxied or resized
          // (next/image would need every publisher's host configured in advance).
          // eslint-disable-next-line @next/next/no-img-element
          <img
            src={profile.logoUrl}
            alt={`${client.name} logo`}
            width={64}
            height={64}
            className="h-16 w-16 rounded-md object-contain"
            referrerPolicy="no-referrer"
          />
        ) : null}
        <h1 className="text-2xl font-semibold">Authorize {client.name}</h1>
        {profile?.publisherName || profile?.websiteUrl ? (
          <p className="text-sm text-fg-muted" data-testid="client-publisher">
            {profile.publisherName ? <>by {profile.publisherName}</> : null}
            {profile.publisherName && profile.websiteUrl ? " · " : null}
            {profile.websiteUrl ? (
              <a className="text-brand-ink underline" href={profile.websiteUrl} target="_blank" rel="noopener noreferrer">
                {new URL(profile.websiteUrl).host}
              </a>
            ) : null}
          </p>
        ) : null}
      </div>
      {query.expired ? <Alert tone="info">The form had expired. Check your choices and decide again.</Alert> : null}
      <Card>
        <form action={consentAction} className="space-y-5">
          <p className="text-sm text-fg-2">
            <strong>{client.name}</strong> wants to access <strong>{org.name}</strong>
            {request.resource === mcpResource() ? " through its MCP server" : ""} on your behalf (signed in as {user.email}). Afterwards you will be sent to{" "}
            <strong data-testid="redirect-host">{new URL(request.redirectUri).host}</strong>.
          </p>
          <ScopeCheckboxes legend="It asks to:" name="approved_scope" scopes={request.scopes} checked={request.scopes} idPrefix="consent" lead="meaning" />
          <p className="rounded-md bg-muted px-3 py-2 text-sm font-medium text-fg">This app cannot download the contents of your files.</p>
          <p className="text-xs text-fg-subtle">Untick what you do not want to allow. You can revoke access later under Connected apps.</p>
          {hidden.map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <input type="hidden" name="consent_token" value={token} />
          <div className="flex gap-3">
            <Button type="submit" name="decision" value="approve">
              Approve
            </Button>
            <Button type="submit" name="decision" value="deny" variant="secondary">
              Deny
            </Button>
          </div>
        </form>
      </Card>
    </main>
  );
}
