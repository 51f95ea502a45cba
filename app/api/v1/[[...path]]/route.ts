import { unknownApiPath } from "@/lib/api/unknown-path";

// Any other path under /api/v1, any method: 404 not_found as JSON, with the standard headers.
export const GET = unknownApiPath;
export const POST = unknownApiPath;
export const PUT = unknownApiPath;
export const PATCH = unknownApiPath;
export const DELETE = unknownApiPath;
export const OPTIONS = unknownApiPath;
