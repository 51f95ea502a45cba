/**
 * The link that names a row of a list or table (a portal, a request, a task): brand ink, medium
 * weight and always underlined, the line fainter until hover or keyboard focus. The underline is
 * what marks it as a link in both schemes: on dark pages the ink is the brand mixed with white,
 * which for a dark brand is close to the surrounding text's colour.
 */
export const ROW_LINK =
  "font-medium text-brand-ink underline decoration-brand-ink/40 underline-offset-2 hover:decoration-current focus-visible:decoration-current";
