import { z } from "zod";

// A client's publisher, website and logo: https only, the logo an image; empty clears.

const IMAGE_PATH = /\.(png|jpe?g|gif|webp|svg|avif)$/i;

function httpsUrl(value: string): URL | null {
  try {
    const url = new URL(value);
    return url.protocol === "https:" && !url.username && !url.password ? url : null;
  } catch {
    return null;
  }
}

const empty = (v: string) => (v === "" ? null : v);

export const clientProfileSchema = z.object({
  publisherName: z.string().trim().max(100, "must be at most 100 characters").transform(empty),
  websiteUrl: z
    .string()
    .trim()
    .max(2000)
    .refine((v) => v === "" || httpsUrl(v) !== null, "must be an https URL, e.g. https://example.com")
    .transform(empty),
  logoUrl: z
    .string()
    .trim()
    .max(2000)
    .refine(
      (v) => v === "" || (httpsUrl(v) !== null && IMAGE_PATH.test(httpsUrl(v)!.pathname)),
      "must be an https URL of an image (.png, .jpg, .gif, .webp, .svg or .avif)",
    )
    .transform(empty),
});

export type ClientProfileInput = z.input<typeof clientProfileSchema>;
export type ClientProfile = z.output<typeof clientProfileSchema>;
