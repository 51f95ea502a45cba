import type { z } from "zod";
import type { Role as OrgRole } from "@/lib/access/viewer";
import { errorState, formFields } from "@/lib/web/form-input";
import { webActor, type WebActor } from "@/lib/web/web-actor";
import type { FormState } from "@/lib/web/form-state";

interface FormActionOptions<I, V> {
  /** The form's fields, parsed with this schema before `fn` runs; a failure is shown per field. */
  input: z.ZodType<I>;
  /** What the form shows again after an error; by default nothing is given back. */
  values?: (formData: FormData) => V;
  /** The fields the form shows an error at; errors about other fields become the form's message. */
  fields?: readonly string[];
}

interface OrgActionOptions<I, V> extends FormActionOptions<I, V> {
  /** The lowest role that may run the action (guest < member < admin). */
  minRole: OrgRole;
  /** Where sign-in comes back to when the session has ended. */
  returnTo: (orgId: string) => string;
}

/** `first` (session and role) runs before the input is even parsed: a refusal wins over a typo. */
async function runForm<C, I, S extends FormState<V>, V>(
  options: FormActionOptions<I, V>,
  formData: FormData,
  first: () => Promise<C>,
  fn: (ctx: C, input: I) => Promise<S>,
): Promise<S> {
  try {
    const ctx = await first();
    return await fn(ctx, options.input.parse(formFields(formData, options.input)));
  } catch (e) {
    const state = errorState(e, options.fields);
    if (!state) throw e;
    return { ...state, ...(options.values ? { values: options.values(formData) } : {}) } as S;
  }
}

/**
 * A web action outside an organization (e.g. accepting an invitation), for useActionState: input
 * parsed from FormData and AppErrors turned into form state, as in orgAction; no session required
 * (`fn` asks for one when it needs it).
 */
export function formAction<I, S extends FormState<V>, V = S["values"]>(
  options: FormActionOptions<I, V>,
  fn: (input: I, formData: FormData) => Promise<S>,
): (prev: S, formData: FormData) => Promise<S> {
  return (_prev, formData) =>
    runForm(
      options,
      formData,
      async () => null,
      (_ctx, input) => fn(input, formData),
    );
}

/**
 * One web action of an organization's settings, for useActionState: session and role, input
 * parsed from FormData, and domain errors (AppError: code, field, user message) turned into the
 * form's state. Anything else is a bug and propagates (Next's error page), as do redirects.
 * Call as `action.bind(null, orgId)` from the page.
 */
export function orgAction<I, S extends FormState<V>, V = S["values"]>(
  options: OrgActionOptions<I, V>,
  fn: (ctx: WebActor, input: I, formData: FormData) => Promise<S>,
): (orgId: string, prev: S, formData: FormData) => Promise<S> {
  return (orgId, _prev, formData) =>
    runForm(
      options,
      formData,
      () => webActor(orgId, options.minRole, options.returnTo(orgId)),
      (ctx, input) => fn(ctx, input, formData),
    );
}
