import type { Env } from "@/lib/env";

/** Where `npx inngest-cli dev` listens. */
export const DEFAULT_DEV_SERVER_URL = "http://127.0.0.1:8288";

export type InngestSettings = {
  isDev: boolean;
  baseUrl: string | undefined;
  eventKey: string | undefined;
  signingKey: string | undefined;
};

type InngestEnv = Pick<Env, "NODE_ENV" | "INNGEST_EVENT_KEY" | "INNGEST_SIGNING_KEY" | "INNGEST_BASE_URL" | "INNGEST_DEV">;

/** INNGEST_DEV as the SDK reads it: a boolean flag, or the Dev Server's URL (which implies dev). */
function parseDevFlag(value: string | undefined): boolean | string | undefined {
  if (value === undefined) return undefined;
  const v = value.toLowerCase();
  if (v === "1" || v === "true") return true;
  if (v === "0" || v === "false") return false;
  return URL.canParse(value) ? value : undefined;
}

/**
 * The Inngest client's configuration. SDK v4 defaults to cloud mode, where sending needs an event
 * key; so that `npm run dev` works on a fresh machine, development and tests without an event key
 * use the local Dev Server instead. INNGEST_DEV and INNGEST_BASE_URL override either way.
 */
export function inngestSettings(e: InngestEnv): InngestSettings {
  const dev = parseDevFlag(e.INNGEST_DEV);
  const isDev = typeof dev === "boolean" ? dev : dev !== undefined || (e.NODE_ENV !== "production" && !e.INNGEST_EVENT_KEY);
  const devUrl = typeof dev === "string" ? dev : DEFAULT_DEV_SERVER_URL;
  return {
    isDev,
    baseUrl: e.INNGEST_BASE_URL ?? (isDev ? devUrl : undefined),
    eventKey: e.INNGEST_EVENT_KEY,
    signingKey: e.INNGEST_SIGNING_KEY,
  };
}
