import { createHash } from "node:crypto";
import { expect, test } from "@playwright/test";

import { query } from "./db";

// Password sign-in is throttled per account and per address (lib/auth/throttle.ts), also when the
// credentials callback is posted to directly; an unknown address gets the same answers.

test("wrong passwords posted straight to the credentials callback are slowed down, and the form says so", async ({ page, request }) => {
  const email = `nobody-${Date.now()}@demo.test`;
  const codes: string[] = [];
  for (let i = 0; i < 12; i++) {
    const { csrfToken } = (await (await request.get("/api/auth/csrf")).json()) as { csrfToken: string };
    const res = await request.post("/api/auth/callback/credentials", {
      form: { csrfToken, email, password: `guess-${i}`, callbackUrl: "/" },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(302);
    const location = new URL(res.headers()["location"] ?? "", "http://localhost");
    expect(location.pathname).toBe("/sign-in");
    codes.push(location.searchParams.get("code") ?? "");
  }
  // Four wrong passwords are checked at once; the fifth makes the next attempts wait.
  expect(codes.slice(0, 5)).toEqual(["credentials", "credentials", "credentials", "credentials", "credentials"]);
  expect(codes.slice(5)).toContain("throttled");
  expect(codes.filter((c) => c === "credentials").length).toBeLessThanOrEqual(10);

  // The sign-in form, for the same address while it must wait (the wait made longer through its
  // stored time, so that a slow machine cannot outlast it): the throttled message, not "do not match".
  const key = `password:account:${createHash("sha256").update(email).digest("hex")}`;
  const [row] = await query<{ count: number }>(`UPDATE "AuthThrottle" SET "nextAttemptAt" = now() + interval '1 minute' WHERE key = $1 RETURNING count`, [key]);
  expect(row?.count).toBe(codes.filter((c) => c === "credentials").length);
  await page.goto("/sign-in");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password").fill("another-guess");
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Too many sign-in attempts" })).toBeVisible();
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in/);
});
