// The user's own pages, each with its one name: the header's account menu, the page's h1 and its
// title all say this name.

export const ACCOUNT_PAGES = {
  notifications: { href: "/account/notifications", name: "My notifications" },
  sessions: { href: "/account/sessions", name: "Signed-in sessions" },
  twoFactor: { href: "/account/two-factor", name: "Two-factor authentication" },
} as const;

/** The account menu's links, in its order. */
export const ACCOUNT_LINKS = Object.values(ACCOUNT_PAGES).map((p) => ({ href: p.href, label: p.name }));
