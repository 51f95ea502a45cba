import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Packages with native or wasm parts, or that read files next to themselves, stay external.
  serverExternalPackages: ["@prisma/client", "@prisma/adapter-pg", "pg", "nodemailer", "bcryptjs"],
  poweredByHeader: false,
  typedRoutes: false,
  // forbidden(): a page can answer 403 with its own UI (app/oauth/forbidden.tsx), which a proxy
  // rewrite cannot (its status is not kept for a page).
  experimental: { authInterrupts: true },
  async headers() {
    return [
      {
        // The consent screen must never be framed: a framing page could trick a click on Approve
        // (clickjacking). frame-ancestors for current browsers, X-Frame-Options for old ones.
        source: "/oauth/:path*",
        headers: [
          { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
    ];
  },
};

export default nextConfig;
