import type { Metadata } from "next";
import { connection } from "next/server";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Client Portals", template: "%s · Client Portals" },
  description: "Client portals for accounting and professional-services firms",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Rendered per request: Next.js puts the request's CSP nonce (set by proxy.ts) on its scripts,
  // which a page prerendered at build time could not carry.
  await connection();
  return (
    <html lang="en">
      <body className="min-h-screen">{children}</body>
    </html>
  );
}
