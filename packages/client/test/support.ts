import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { inject } from "vitest";
import { issueAuthorizationCode } from "@/lib/oauth/authorize";
import { ALL_SCOPES } from "@/lib/access/scopes";
import { createTestClient, createTestOrg, createTestUser } from "@/lib/test-support/fixtures";
import { createClientPortals, exchangeCode, type ClientPortalsOptions, type OAuthClientCredentials, type Tokens } from "../src";

// What the client tier's tests share: the server's URL, a connection made as an integration makes
// it (an OAuth client of a fresh organization, a code approved by its admin, exchanged through the
// real token endpoint with PKCE), and loopback servers.

export const baseUrl = (): string => inject("client").baseUrl;

const REDIRECT_URI = "https://integration.example/callback";

/** A fresh organization whose admin approved the client for every scope; tokens from /oauth/token. */
export async function connect() {
  const org = await createTestOrg();
  const admin = await createTestUser({ orgId: org.id, role: "admin" });
  const { client, secret } = await createTestClient({ orgId: org.id, actorUserId: admin.id, redirectUris: [REDIRECT_URI] });
  const verifier = randomBytes(32).toString("base64url");
  const code = await issueAuthorizationCode({
    request: {
      client: { id: client.id, clientId: client.clientId, name: client.name, orgId: org.id, orgName: org.name },
      redirectUri: REDIRECT_URI,
      scopes: [...ALL_SCOPES],
      state: null,
      codeChallenge: createHash("sha256").update(verifier).digest("base64url"),
      codeChallengeMethod: "S256",
    },
    userId: admin.id,
    approvedScopes: [...ALL_SCOPES],
  });
  const oauth: OAuthClientCredentials = { tokenUrl: `${baseUrl()}/oauth/token`, clientId: client.clientId, clientSecret: secret };
  const tokens = await exchangeCode(oauth, { code, redirectUri: REDIRECT_URI, codeVerifier: verifier });
  return { org, admin, oauth, tokens };
}

export type Connection = Awaited<ReturnType<typeof connect>>;

/** A typed client on the connection; `onTokens` sees every rotation. */
export function clientFor(connection: Connection, options: Partial<ClientPortalsOptions> = {}) {
  const rotations: Tokens[] = [];
  const client = createClientPortals({
    baseUrl: baseUrl(),
    tokens: connection.tokens,
    oauth: connection.oauth,
    onTokens: (t) => void rotations.push(t),
    ...options,
  });
  return { client, rotations };
}

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: Buffer;
}

/** A loopback HTTP server that records requests and answers with `handle`. */
export async function loopback(handle: (req: Recorded) => { status: number; headers?: Record<string, string>; body?: string } | Promise<Response>) {
  const received: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const recorded = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) };
      received.push(recorded);
      void Promise.resolve(handle(recorded)).then(async (answer) => {
        if (answer instanceof Response) {
          const headers = Object.fromEntries(
            [...answer.headers].filter(([k]) => !["content-encoding", "transfer-encoding", "content-length", "connection"].includes(k)),
          );
          res.writeHead(answer.status, headers).end(Buffer.from(await answer.arrayBuffer()));
        } else {
          res.writeHead(answer.status, answer.headers ?? {}).end(answer.body ?? "");
        }
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
