import nodemailer from "nodemailer";
import { env } from "@/lib/env";

// One nodemailer transport per SMTP_URL (tests point SMTP_URL at a sink and back).
let cached: { url: string; transport: nodemailer.Transporter } | undefined;

/** The SMTP transport, or undefined when SMTP_URL is unset (email is captured, D29). */
export function smtpTransport(): nodemailer.Transporter | undefined {
  const url = env().SMTP_URL;
  if (!url) return undefined;
  if (cached?.url !== url) {
    cached?.transport.close();
    cached = { url, transport: nodemailer.createTransport(url) };
  }
  return cached.transport;
}
