import { escapeHtml } from "@/lib/email/escape";

export interface EmailBrand {
  name: string;
  /** #rrggbb, validated when saved (readable with white text); null: the product's colour. */
  brandColor: string | null;
  /** The same-origin logo path (lib/organization/logo.ts), or null. */
  logoUrl: string | null;
}

/** The product's colour when an organization has none (the pages' default --color-brand). */
const DEFAULT_EMAIL_BRAND_COLOR = "#1f4e79";

/**
 * An organization's email body under its header: a bar in its brand colour with its logo (an
 * absolute URL on APP_URL, as email clients need) or its name in white. Inline styles only:
 * email clients ignore style sheets. The text part is left as it is.
 */
export function brandEmailHtml(html: string, brand: EmailBrand, appUrl: string): string {
  const colour = brand.brandColor && /^#[0-9a-f]{6}$/.test(brand.brandColor) ? brand.brandColor : DEFAULT_EMAIL_BRAND_COLOR;
  const logo = brand.logoUrl && /^\/org\/[0-9a-f-]{36}\/logo\/[0-9a-f]{64}$/.test(brand.logoUrl) ? new URL(brand.logoUrl, appUrl).toString() : null;
  const name = escapeHtml(brand.name);
  const head = logo
    ? `<img src="${escapeHtml(logo)}" alt="${name}" height="40" style="height:40px;width:auto;display:block;background:#ffffff;padding:4px;border-radius:4px">`
    : `<span style="color:#ffffff;font-size:18px;font-weight:600">${name}</span>`;
  return (
    `<div data-brand="${colour}" style="background:${colour};padding:12px 16px">${head}</div>` +
    `<div style="padding:16px;font-family:system-ui,-apple-system,'Segoe UI',sans-serif;color:#0f172a">${html}</div>`
  );
}
