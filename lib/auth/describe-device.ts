import Bowser from "bowser";

/** "Chrome 131 on Linux" from a User-Agent; "Unknown device" when there is none. */
export function describeDevice(userAgent: string): string {
  if (!userAgent.trim()) return "Unknown device";
  const parsed = Bowser.parse(userAgent);
  const browser = [parsed.browser.name, parsed.browser.version?.split(".")[0]].filter(Boolean).join(" ");
  const os = [parsed.os.name, parsed.os.versionName ?? parsed.os.version].filter(Boolean).join(" ");
  if (browser && os) return `${browser} on ${os}`;
  // Not a browser it knows: the User-Agent itself, shortened.
  return browser || os || userAgent.trim().slice(0, 60);
}
