import { apiRoute, json } from "@/lib/api";
import { getMe } from "@/lib/me/get-me";
import { getMeOperation } from "@/lib/api/operations/me";

// GET /api/v1/me - any valid token
export const GET = apiRoute(getMeOperation, async ({ viewer }) => json(await getMe({ viewer })));
