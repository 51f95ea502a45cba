import { env } from "@/lib/env";
import type { SecurityContext } from "./headers";

/** What the security headers depend on besides the path and nonce: the deployment's configuration. */
export type Deployment = Pick<SecurityContext, "https" | "development" | "connectOrigins">;

export function deployment(): Deployment {
  const e = env();
  return {
    https: e.APP_URL.startsWith("https://"),
    development: e.NODE_ENV === "development",
    connectOrigins: e.S3_ENDPOINT ? [new URL(e.S3_ENDPOINT).origin] : [],
  };
}
