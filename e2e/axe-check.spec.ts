import { expect, test, type Page } from "@playwright/test";
import { seriousAxeFindings } from "./support";

// The accessibility check every page spec relies on finds what it is meant to find: on a planted
// page, the violations of the whole document, of one part of it (include), of named rules alone,
// in a same-origin frame, and again after the page has been replaced by another; and a title that
// comes late or never.

const PLANTED = `<!doctype html><html lang="en"><head><title>Planted</title></head><body>
  <main>
    <section id="images"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></section>
    <section id="buttons"><button></button></section>
    <p id="faint" style="color:#bbb;background:#fff">Faint text on white</p>
    <iframe title="Inner" srcdoc="<!doctype html><html lang='en'><title>Inner</title><body><button></button></body></html>"></iframe>
  </main>
</body></html>`;

/** Serves `html` at a page of its own origin (a document from setContent has none a frame could share). */
async function planted(page: Page, html: string): Promise<void> {
  await page.route("http://planted.test/", (route) => route.fulfill({ contentType: "text/html", body: html }));
  await page.goto("http://planted.test/");
  await page.unroute("http://planted.test/");
}

test("axe findings: the whole page, one part of it, named rules, a frame, and after a new document", async ({ page }) => {
  await planted(page, PLANTED);
  await expect(page.frameLocator("iframe").locator("button")).toHaveCount(1);

  expect(await seriousAxeFindings(page), "the whole page, the frame's button included").toEqual([
    "button-name (critical): button, iframe button",
    "color-contrast (serious): #faint",
    "image-alt (critical): img",
  ]);
  expect(await seriousAxeFindings(page, { include: "#buttons" }), "only the part asked for").toEqual(["button-name (critical): button"]);
  expect(await seriousAxeFindings(page, { rules: ["color-contrast"] }), "only the rules asked for").toEqual(["color-contrast (serious): #faint"]);

  // A new document has no axe of its own until the check injects it again.
  await planted(page, `<!doctype html><html lang="en"><head><title>Clean</title></head><body><main><h1>Clean</h1></main></body></html>`);
  expect(await seriousAxeFindings(page)).toEqual([]);
  await planted(page, PLANTED);
  expect(await seriousAxeFindings(page, { rules: ["image-alt"] })).toEqual(["image-alt (critical): img"]);
});

test("axe findings: a title that comes late is waited for; a page that never has one is reported", async ({ page }) => {
  // As when Next streams a page's metadata again after a refresh: the title comes after the body.
  await planted(
    page,
    `<!doctype html><html lang="en"><head></head><body><main><h1>Late</h1></main>
    <script>setTimeout(() => { document.title = "Late"; }, 700);</script></body></html>`,
  );
  expect(await seriousAxeFindings(page)).toEqual([]);
  await planted(page, `<!doctype html><html lang="en"><head></head><body><main><h1>Untitled</h1></main></body></html>`);
  expect(await seriousAxeFindings(page)).toEqual(["document-title (serious): html"]);
});
