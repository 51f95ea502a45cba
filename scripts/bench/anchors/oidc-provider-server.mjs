// oidc-provider configured like the product: confidential client, JWT access tokens 1 h,
// refresh tokens rotating, 30 days.
import Provider from "oidc-provider";
const PORT = Number(process.env.PORT ?? 4400);
const provider = new Provider(`http://127.0.0.1:${PORT}`, {
  clients: [
    {
      client_id: "bench",
      client_secret: "bench-secret-bench-secret-bench-secret",
      redirect_uris: ["http://localhost:8765/cb"],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      scope: "openid offline_access portal:read",
    },
  ],
  scopes: ["openid", "offline_access", "portal:read"],
  features: {
    resourceIndicators: {
      enabled: true,
      defaultResource: () => "https://api.example",
      getResourceServerInfo: () => ({ scope: "portal:read", accessTokenFormat: "jwt", accessTokenTTL: 3600, jwt: { sign: { alg: "RS256" } } }),
      useGrantedResource: () => true,
    },
  },
  ttl: { RefreshToken: 30 * 24 * 3600, AccessToken: 3600, Grant: 30 * 24 * 3600 },
  rotateRefreshToken: true,
  issueRefreshToken: () => true,
  async findAccount(ctx, id) {
    return {
      accountId: id,
      async claims() {
        return { sub: id };
      },
    };
  },
});
provider.on("server_error", (ctx, err) => console.error("server_error", err));
// Seed refresh tokens directly through the provider's models (no interactive login needed).
const N = Number(process.env.CHAINS ?? 16);
const tokens = [];
const client = await provider.Client.find("bench");
for (let i = 0; i < N; i++) {
  const grant = new provider.Grant({ accountId: `user${i}`, clientId: "bench" });
  grant.addOIDCScope("openid offline_access");
  grant.addResourceScope("https://api.example", "portal:read");
  const grantId = await grant.save();
  const rt = new provider.RefreshToken({
    client,
    accountId: `user${i}`,
    grantId,
    scope: "openid offline_access",
    resource: "https://api.example",
    gty: "authorization_code",
    iat: Math.floor(Date.now() / 1000),
  });
  tokens.push(await rt.save());
}
provider.listen(PORT, "127.0.0.1", () => {
  console.log(JSON.stringify({ ready: true, tokens }));
});
