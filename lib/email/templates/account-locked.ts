import { escapeHtml } from "@/lib/email/escape";
import { env } from "@/lib/env";

const WHAT = {
  password: { done: "wrong passwords were entered", locked: "Signing in with a password" },
  "magic-link": { done: "sign-in links were asked for", locked: "Asking for sign-in links" },
  "password-reset": { done: "password resets were asked for", locked: "Asking for password resets" },
} as const;

/** To the owner of an account whose sign-in was locked by the throttle (lib/auth/throttle.ts). */
export function accountLockedEmail({ kind, attempts, minutes, ip }: { kind: keyof typeof WHAT; attempts: number; minutes: number; ip: string }) {
  const what = WHAT[kind];
  const from = ip ? ` from the address ${ip}` : "";
  const reset = `${env().APP_URL}/sign-in/forgot`;
  const text = `${attempts} times in a short while, ${what.done} for your Client Portals account${from}. ${what.locked} is locked for ${minutes} minutes.\n\nIf this was you, wait and try again. If it was not, someone may be guessing your password: choose a new one here:\n\n${reset}`;
  return {
    subject: "Sign-in to your Client Portals account was locked",
    text,
    html: `<p>${attempts} times in a short while, ${escapeHtml(what.done)} for your Client Portals account${escapeHtml(from)}. ${escapeHtml(what.locked)} is locked for ${minutes} minutes.</p><p>If this was you, wait and try again. If it was not, someone may be guessing your password: <a href="${escapeHtml(reset)}">choose a new one</a>.</p>`,
  };
}
