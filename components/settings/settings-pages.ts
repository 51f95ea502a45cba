// The organization's settings pages, each with its one name: the settings tabs, the header's
// Developers menu, each page's h1 and its title all say this name.

export const SETTINGS_PAGES = {
  profile: { path: "profile", name: "Organization profile" },
  members: { path: "members", name: "Members" },
  workflowStates: { path: "workflow-states", name: "Workflow states" },
  guestDefaults: { path: "guest-defaults", name: "Guest defaults" },
  partner: { path: "partner", name: "Partner integration" },
  api: { path: "api", name: "API settings" },
  webhooks: { path: "webhooks", name: "Webhooks" },
  connectedApps: { path: "connected-apps", name: "Connected apps" },
} as const;

type SettingsPage = keyof typeof SETTINGS_PAGES;

export interface SettingsLink {
  href: string;
  label: string;
}

const link = (orgId: string, page: SettingsPage): SettingsLink => ({
  href: `/org/${orgId}/settings/${SETTINGS_PAGES[page].path}`,
  label: SETTINGS_PAGES[page].name,
});

/**
 * The settings pages a viewer has, in two groups: the organization's own (`general`: the profile
 * for members, the rest for admins) and those for developers (API settings and Webhooks for admins
 * of an organization with API access, Connected apps for every member).
 */
export function settingsLinks(orgId: string, { admin, api }: { admin: boolean; api: boolean }): { general: SettingsLink[]; developers: SettingsLink[] } {
  return {
    general: [link(orgId, "profile"), ...(admin ? (["members", "workflowStates", "guestDefaults", "partner"] as const).map((p) => link(orgId, p)) : [])],
    developers: [...(admin && api ? [link(orgId, "api"), link(orgId, "webhooks")] : []), link(orgId, "connectedApps")],
  };
}
