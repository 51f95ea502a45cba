// The brand colour is used as text on white (links) and as the background of white text
// (buttons), so it must reach WCAG AA for normal text (4.5:1) against white.

export const MIN_BRAND_CONTRAST = 4.5;

function channel(hex: string): number {
  const c = parseInt(hex, 16) / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG contrast ratio of `#rrggbb` with white. */
export function contrastWithWhite(colour: string): number {
  const l = 0.2126 * channel(colour.slice(1, 3)) + 0.7152 * channel(colour.slice(3, 5)) + 0.0722 * channel(colour.slice(5, 7));
  return 1.05 / (l + 0.05);
}

/** A very light tint of the colour (the soft badge background), mixed with white at 10%. */
export function softTint(colour: string): string {
  const mix = (i: number) =>
    Math.round(255 - (255 - parseInt(colour.slice(i, i + 2), 16)) * 0.1)
      .toString(16)
      .padStart(2, "0");
  return `#${mix(1)}${mix(3)}${mix(5)}`;
}
