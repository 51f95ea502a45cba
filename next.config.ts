import type { NextConfig } from "next";

/**
 * A benchmark build (`BENCH_BUILD=1 npm run build`, scripts/bench) also compiles `*.bench.ts`:
 * the framework-floor route app/api/bench-floor/route.bench.ts. Every other build leaves it out.
 */
export const pageExtensions = (env: Record<string, string | undefined> = process.env): string[] =>
  env["BENCH_BUILD"] === "1" ? ["tsx", "ts", "jsx", "js", "bench.ts"] : ["tsx", "ts", "jsx", "js"];

const nextConfig: NextConfig = {
  pageExtensions: pageExtensions(),
  // Packages with native or wasm parts, or that read files next to themselves, stay external.
  serverExternalPackages: ["@prisma/client", "@prisma/adapter-pg", "pg", "nodemailer", "bcryptjs"],
  poweredByHeader: false,
  // No gzip in the app: the load balancer or CDN in front compresses (docs/operations.md). Gzip
  // measured at 2-5% of the server's CPU under API load (6-15% per refresh grant), on the
  // one resource an instance runs out of first.
  compress: false,
  typedRoutes: false,
  // forbidden(): a page can answer 403 with its own UI (app/oauth/forbidden.tsx), which a proxy
  // rewrite cannot (its status is not kept for a page).
  experimental: {
    authInterrupts: true,
    // The build's file-system cache speeds up the next build on the same checkout; a CI job builds
    // once on a fresh clone, where writing it only costs (about 40 s of a core on two cores).
    turbopackFileSystemCacheForBuild: !process.env["CI"],
  },
  // `npm test` (scripts/test.ts) sets BUILD_TYPECHECKED=1 when its typecheck step, `tsc --noEmit`
  // over the same tsconfig, passed earlier in the same run: the build's own pass would repeat it.
  // Any other build checks types itself.
  typescript: { ignoreBuildErrors: process.env["BUILD_TYPECHECKED"] === "1" },
  // Security headers (the consent screen's frame-ancestors among them): proxy.ts, for every path.
};

export default nextConfig;
