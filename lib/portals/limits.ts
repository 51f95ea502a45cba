// The portal limits (spec section 2) in a module without zod, so browser code can show them: zod 4
// probes for eval when it builds schemas, which the pages' CSP reports as a violation.

export const MAX_NAME_LENGTH = 200;
export const MAX_TAGS = 50;
export const MAX_TAG_LENGTH = 100;
