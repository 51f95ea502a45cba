import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { StyleNonce } from "@/components/ui/style-nonce";
import { ToastProvider } from "@/components/ui/toast";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Client Portals", template: "%s · Client Portals" },
  description: "Client portals for accounting and professional-services firms",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Rendered per request: Next.js puts the request's CSP nonce (set by proxy.ts) on its scripts,
  // which a page prerendered at build time could not carry.
  // Reading the request makes the page dynamic; the nonce also goes to the UI kit's run-time styles.
  const nonce = /'nonce-([^']+)'/.exec((await headers()).get("content-security-policy") ?? "")?.[1];
  return (
    <html lang="en">
      <body className="min-h-screen">
        <StyleNonce nonce={nonce} />
        <ToastProvider>{children}</ToastProvider>
      </body>
    </html>
  );
}
