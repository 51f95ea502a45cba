// The task names the API and events spell (spec section 2), without the event schemas: browser code
// (the task and request forms) imports these, and importing zod there would build its schemas in
// the page, whose JIT probe (`new Function`) the page's CSP refuses.

/** Task action types as the API spells them (spec section 2). */
export const taskActionTypes = ["Question?", "File Request", "Sign Document", "Fill Form", "General"] as const;
export const taskStatuses = ["Open", "Done"] as const;
