import { tmpdir } from "node:os";
import path from "node:path";

/** Where scripts/e2e-server.ts writes its environment (per port: runs side by side do not mix). */
export const serverEnvFile = (port: number) => path.join(tmpdir(), `client-portals-e2e-server-env-${port}.json`);
