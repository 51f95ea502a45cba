"use client";

import { ApiReferenceReact } from "@scalar/api-reference-react";
import "@scalar/api-reference-react/style.css";

/**
 * The API reference: Scalar rendering /api/v1/openapi.json, bundled with the app (no CDN, no
 * Scalar proxy, no hosted fonts, no telemetry), so it works offline and sends requests from the
 * browser straight to our API. Try-it requests take an access token (Authentication: OAuth 2.0,
 * paste the token) and show code samples per language; search with the "k" hotkey.
 */
export function ApiReference() {
  return (
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
      }}
    />
  );
}
