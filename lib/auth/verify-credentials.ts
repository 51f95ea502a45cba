import { z } from "zod";
import { db } from "@/lib/db";
import { verifyPassword } from "@/lib/auth/password";

const credentials = z.object({
  email: z.string().trim().toLowerCase().pipe(z.email()),
  password: z.string().min(1).max(200),
});

// A hash of a random password, compared against when the user does not exist, so that response
// time does not tell which emails have accounts.
const DUMMY_HASH = "$2b$11$CwTycUXWue0Thq9StjUM0uJ8.7Ykqs1c4Yq9b6RcRP4bEl3k1kS2e";

/** Checks an email and password; returns the user or null. Never says which part was wrong. */
export async function verifyCredentials(input: unknown): Promise<{ id: string; email: string; name: string | null } | null> {
  const parsed = credentials.safeParse(input);
  if (!parsed.success) return null;
  const user = await db.user.findUnique({
    where: { email: parsed.data.email },
    select: { id: true, email: true, name: true, passwordHash: true },
  });
  const ok = await verifyPassword(parsed.data.password, user?.passwordHash ?? DUMMY_HASH);
  if (!user?.passwordHash || !ok) return null;
  return { id: user.id, email: user.email, name: user.name };
}
