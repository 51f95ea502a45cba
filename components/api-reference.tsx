"use client";

// First: zod's settings before Scalar's modules build their schemas.
import "@/lib/zod-jitless";
import { ApiReferenceReact } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";
import { useEffect, useRef } from "react";

/**
 * Scalar's light theme, darker where its text is too pale to read (WCAG AA, 4.5:1, on its white and
 * grey backgrounds: muted text, the search placeholder, method badges, code strings), and its
 * one-line summaries, status tabs and endpoint paths wrapped instead of cut short or scrolled
 * sideways on a phone.
 */
const CUSTOM_CSS = `
.light-mode .scalar-app, .light-mode.scalar-app, .light-mode {
  --scalar-color-2: #4d4d4d;
  --scalar-color-3: #575757;
  --scalar-sidebar-color-2: #4d4d4d;
  --scalar-sidebar-search-color: #575757;
  --scalar-color-green: #0b6b3f;
  --scalar-color-blue: #0b58a6;
  --scalar-color-orange: #9c3d06;
  --scalar-color-red: #b0001a;
  --scalar-color-purple: #5321a8;
  --scalar-color-yellow: #6e5400;
}
.scalar-app .markdown-summary.truncate { white-space: normal; overflow: visible; text-overflow: clip; }
.scalar-app .tab-list { flex-wrap: wrap; overflow-x: visible; }
.scalar-app .endpoint { white-space: normal; }
.scalar-app .endpoint-path { min-width: 0; overflow-wrap: anywhere; }
`;

/**
 * Names Scalar leaves out, set on its DOM as it renders: the code blocks' copy buttons have an icon
 * only, and "Show More" is labelled "Show all … endpoints", a name that does not contain its
 * visible text (speech users say what they see).
 */
function nameScalarControls(root: HTMLElement): void {
  for (const button of root.querySelectorAll<HTMLButtonElement>("button.scalar-code-copy:not([aria-label])")) button.setAttribute("aria-label", "Copy code");
  for (const button of root.querySelectorAll<HTMLButtonElement>("button.show-more[aria-label^='Show all ']")) {
    const visible = (button.textContent ?? "").trim();
    button.setAttribute("aria-label", `${visible} ${button.getAttribute("aria-label")!.slice("Show all ".length)}`);
  }
}

/**
 * The API reference: Scalar rendering /api/v1/openapi.json, bundled with the app (no CDN, no
 * Scalar proxy, no hosted fonts, no telemetry), so it works offline and sends requests from the
 * browser straight to our API. Try-it requests take an access token (Authentication: OAuth 2.0,
 * paste the token) and show code samples per language; search with the "k" hotkey.
 */
export function ApiReference() {
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = root.current;
    if (!element) return;
    nameScalarControls(element);
    const observer = new MutationObserver(() => nameScalarControls(element));
    observer.observe(element, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={root}>
      <ApiReferenceReact
        configuration={{
          url: "/api/v1/openapi.json",
          title: "Client Portals API reference",
          withDefaultFonts: false,
          telemetry: false,
          hideClientButton: false,
          showDeveloperTools: "never",
          persistAuth: false,
          mcp: { disabled: true },
          agent: { disabled: true },
          searchHotKey: "k",
          defaultHttpClient: { targetKey: "shell", clientKey: "curl" },
          // A token got elsewhere (e.g. curl against /oauth/token) is pasted here; the document's
          // OAuth 2.0 flow works too once /docs/api is a redirect URI of the developer's client.
          authentication: {
            preferredSecurityScheme: "accessToken",
            securitySchemes: {
              accessToken: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "An access token from /oauth/token", token: "" },
            },
          },
          metaData: { title: "API reference · Client Portals" },
          customCss: CUSTOM_CSS,
        }}
      />
    </div>
  );
}
