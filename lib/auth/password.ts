import bcrypt from "bcryptjs";
import { z } from "zod";

const COST = 11;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, COST);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}

export const MIN_PASSWORD_LENGTH = 10;

/** The rule for every password a user chooses (invitations, member invitations, password reset). */
export const newPasswordSchema = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `The password needs at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(200, "The password is too long");
