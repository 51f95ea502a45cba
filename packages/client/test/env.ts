/** setupFiles entry of the client tier: the server's environment, before lib/env or lib/db are imported. */
import { inject } from "vitest";

declare module "vitest" {
  interface ProvidedContext {
    /** Set by global-setup.ts. */
    client: { env: Record<string, string>; baseUrl: string };
  }
}

Object.assign(process.env, inject("client").env);
