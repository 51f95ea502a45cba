import { describe, expect, it } from "vitest";
import { readGuestPermissions } from "./permissions";

describe("readGuestPermissions", () => {
  it("reads the stored shape of invitations ({view, download, upload, delete}), delete as deleteOwnUploads", () => {
    expect(readGuestPermissions({ view: true, download: false, upload: true, delete: true })).toEqual({
      view: true,
      download: false,
      upload: true,
      deleteOwnUploads: true,
    });
  });

  it("fills missing keys with the organization defaults (older rows, `{}`)", () => {
    expect(readGuestPermissions({})).toEqual({ view: true, download: true, upload: true, deleteOwnUploads: false });
    expect(readGuestPermissions({ upload: false })).toEqual({ view: true, download: true, upload: false, deleteOwnUploads: false });
  });

  it("prefers the typed name deleteOwnUploads when both are stored", () => {
    expect(readGuestPermissions({ delete: true, deleteOwnUploads: false }).deleteOwnUploads).toBe(false);
  });

  it("grants nothing for a value that is not a permissions object", () => {
    const nothing = { view: false, download: false, upload: false, deleteOwnUploads: false };
    for (const stored of [null, "all", [true], { view: "yes" }, 3]) expect(readGuestPermissions(stored)).toEqual(nothing);
  });
});
