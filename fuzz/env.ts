/** setupFiles entry of the fuzz tier: the server's environment, before lib/env or lib/db are imported. */
import { inject } from "vitest";

declare module "vitest" {
  interface ProvidedContext {
    /** Set by global-setup.ts. */
    fuzz: { env: Record<string, string>; seed: number; baseUrl: string };
  }
}

Object.assign(process.env, inject("fuzz").env);
