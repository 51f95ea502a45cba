import { defineOperation } from "@/lib/api/operation";
import { MeSchema } from "@/lib/me/schemas";

// GET /api/v1/me - who the token speaks for (served by app/api/v1/me/route.ts).
export const getMeOperation = defineOperation({
  method: "GET",
  path: "/api/v1/me",
  operationId: "getMe",
  summary: "The user, organization, client and granted scopes of the access token",
  tag: "User",
  scope: null,
  responses: { 200: MeSchema },
});
