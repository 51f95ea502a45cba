export { ApiError, createClientPortals, nextLink, type ClientPortals, type ClientPortalsApi, type ClientPortalsOptions, type ListPath } from "./client";
export { exchangeCode, OAuthError, refreshTokens, type OAuthClientCredentials, type Tokens } from "./oauth";
export { retryAfterMs, type TransportOptions } from "./transport";
export { verifyWebhook, verifyWebhookSignature, WebhookVerificationError, type VerifyOptions } from "./webhooks";
export type { components, operations, paths } from "./schema";
