// What a web action gives back to its form (React's useActionState), shared by every form.

export interface FormState<V = Record<string, unknown>> {
  /** A message about the whole form. */
  error?: string;
  /** Messages per form field (the field's `name`), shown at the field. */
  fieldErrors?: Partial<Record<string, string>>;
  /** The input, given back after an error so that nothing typed is lost. */
  values?: V;
}

export type FormAction<S> = (state: S, formData: FormData) => Promise<S>;
