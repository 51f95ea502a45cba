import { describe, expect, it } from "vitest";
import { signersToSign, signerStatus, type SignerState } from "./signers";

const signer = (position: number, signedAt: Date | null = null): SignerState => ({
  userId: `u${position}`,
  position,
  type: "guest",
  name: null,
  email: `u${position}@example.com`,
  signedAt,
});

describe("signing turns", () => {
  const at = new Date();
  it("sequential: only the first who has not signed, by position", () => {
    const list = [signer(2), signer(0, at), signer(1)];
    expect(signersToSign(list, "sequential").map((s) => s.userId)).toEqual(["u1"]);
    expect(list.map((s) => signerStatus(s, list, "sequential"))).toEqual(["waiting", "signed", "to_sign"]);
  });
  it("parallel: everyone who has not signed; nobody once all signed", () => {
    const list = [signer(0), signer(1, at), signer(2)];
    expect(signersToSign(list, "parallel").map((s) => s.userId)).toEqual(["u0", "u2"]);
    expect(signersToSign([signer(0, at)], "parallel")).toEqual([]);
  });
});
