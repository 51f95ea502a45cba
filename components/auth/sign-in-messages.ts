// What the sign-in page says after a refused sign-in, by reason, for the page (reasons in its URL)
// and the password form (reasons in its state) alike. `factors` names the second factors the
// account has ("totp", "passkey") when the reason is a second factor asked for.

const MESSAGES: Record<string, string> = {
  credentials: "That email and password do not match an account.",
  Verification: "That sign-in link has expired or was already used. Ask for a new one.",
  second_factor: "This account has two-factor authentication on: enter your password again with the code from your authenticator app (or a recovery code).",
  second_factor_wrong: "That code is not right. Enter your password again with the current code from your authenticator app (or an unused recovery code).",
  throttled: "Too many sign-in attempts. Wait a few minutes, then try again (or reset your password).",
  passkey: "That passkey did not sign you in. Use a passkey you added under Two-factor authentication, or sign in with your email and password.",
};

/** The second-factor messages when the account has a passkey. */
const PASSKEY_MESSAGES: Record<string, string> = {
  second_factor: "This account has two-factor authentication on: enter your password again, then use your passkey",
  second_factor_wrong: "That passkey or code was not accepted. Enter your password again, then use your passkey",
};
const OR_CODE = " or enter the code from your authenticator app (or a recovery code).";

export const isSignInReason = (reason: string): boolean => reason in MESSAGES;

export const isSecondFactor = (reason: string | undefined): boolean => reason === "second_factor" || reason === "second_factor_wrong";

/** Which second factors to ask for: the account's, or the code when they are not known. */
export function askFor(reason: string | undefined, factors: string[] | undefined): { passkey: boolean; code: boolean } {
  if (!isSecondFactor(reason)) return { passkey: false, code: false };
  const has = factors ?? ["totp"];
  return { passkey: has.includes("passkey"), code: has.includes("totp") };
}

export function signInMessage(reason: string, factors: string[] | undefined): string {
  const ask = askFor(reason, factors);
  if (ask.passkey) return PASSKEY_MESSAGES[reason] + (ask.code ? "," + OR_CODE : ".");
  return MESSAGES[reason] ?? "Sign-in failed. Try again.";
}
