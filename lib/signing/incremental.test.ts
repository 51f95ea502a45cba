import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { loadForUpdate } from "./incremental";
import { poppler } from "./test-support/verify-signature";

describe("loadForUpdate", () => {
  it("appends only the changed objects after the untouched previous bytes; readers see the new page", async () => {
    const original = await PDFDocument.create();
    const font = await original.embedFont(StandardFonts.Helvetica);
    for (let i = 1; i <= 3; i++) original.addPage().drawText(`Page ${i}`, { x: 50, y: 700, size: 12, font });
    const previous = Buffer.from(await original.save({ useObjectStreams: false }));

    const update = await loadForUpdate(previous);
    const page = update.doc.addPage();
    page.drawText("Appended", { x: 50, y: 700, size: 12, font: await update.doc.embedFont(StandardFonts.Helvetica) });
    const bytes = await update.save();

    expect(bytes.subarray(0, previous.length).equals(previous)).toBe(true);
    const appended = bytes.subarray(previous.length).toString("latin1");
    // The new page, its content, its font, and the page tree: not the three earlier pages.
    const objects = [...appended.matchAll(/(\d+) 0 obj/g)].length;
    expect(objects).toBeGreaterThanOrEqual(3);
    expect(objects).toBeLessThan(8);
    expect(appended).toMatch(/\/Prev \d+/);
    expect((await PDFDocument.load(bytes)).getPageCount()).toBe(4);
    expect(await poppler("pdftotext", bytes, ["-f", "4", "-l", "4"])).toContain("Appended");
    expect(await poppler("pdftotext", bytes, ["-f", "2", "-l", "2"])).toContain("Page 2");
  });
});
