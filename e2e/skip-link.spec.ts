import { expect, test } from "@playwright/test";
import { signIn } from "./support";

// The first Tab on a signed-in page reaches "Skip to content", which takes the keyboard past the
// header to the page's own content: for the firm's pages and the client's home alike.

for (const { who, email } of [
  { who: "a member", email: "admin@demo.test" },
  { who: "a client", email: "client@demo.test" },
]) {
  test(`${who}: the first Tab is a skip link to the page's content`, async ({ page }) => {
    await page.goto("/sign-in");
    await signIn(page, email);
    await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"));
    // A fresh load: the keyboard starts at the top of the document.
    await page.goto(page.url());
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press("Enter");
    await expect(page.locator("main#main")).toBeFocused();
  });
}
