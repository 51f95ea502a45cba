import { existsSync } from 'node:fs';

import { chromium } from 'playwright-core';

// The web side of the flows, in Chromium as a user would do it: the demo sign-in, registering the
// app as a client in API settings, and approving it on the consent screen.

export const DEMO_PASSWORD = 'demo-password-1';

/** What an administrator registers as the redirect URI (Zapier's, for a CLI app; see README). */
export const REDIRECT_URI = 'https://zapier.com/dashboard/auth/oauth/return/App000000CLIAPI/';

const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

export async function withPage(fn) {
  const browser = await chromium.launch({
    ...(existsSync(executablePath) ? { executablePath } : {}),
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'],
  });
  try {
    const page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(20_000);
    return await fn(page);
  } finally {
    await browser.close();
  }
}

export async function signIn(page, email) {
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** An administrator creates the client in API settings; its id and secret, shown once. */
export async function registerClient(appUrl, { name, scopes }) {
  return withPage(async (page) => {
    await page.goto(`${appUrl}/sign-in`);
    await signIn(page, 'admin@demo.test');
    // API settings is in the header's Developers menu; a click before the page is hydrated does
    // nothing, so the menu is clicked until it is open.
    const menu = page.getByRole('button', { name: 'Developers' });
    for (let i = 0; (await menu.getAttribute('aria-expanded')) !== 'true'; i++) {
      if (i === 40) throw new Error('the Developers menu did not open');
      await menu.click();
      await page.waitForTimeout(250);
    }
    await page.locator('#developers-menu').getByRole('link', { name: 'API settings', exact: true }).click();
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByLabel('Redirect URIs').fill(REDIRECT_URI);
    for (const scope of scopes) await page.getByRole('checkbox', { name: scope }).check();
    await page.getByRole('button', { name: 'Create client' }).click();
    const reveal = page.getByTestId('secret-reveal');
    await reveal.waitFor();
    return {
      clientId: (await reveal.getByTestId('new-client-id').textContent()) ?? '',
      clientSecret: (await reveal.getByTestId('new-client-secret').textContent()) ?? '',
    };
  });
}

/**
 * A user opens the authorize URL, signs in, (optionally) unticks scopes and approves. The browser
 * is sent on to the redirect URI; that request is caught (Zapier's address is not reachable from
 * here) and its query returned.
 */
export async function consent(authorizeUrl, { email = 'admin@demo.test', untick = [] } = {}) {
  return withPage(async (page) => {
    await page.route(`${REDIRECT_URI}**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Zapier</h1>' }));
    const redirected = page.waitForRequest((request) => request.url().startsWith(REDIRECT_URI), { timeout: 30_000 });
    await page.goto(authorizeUrl);
    await signIn(page, email);
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    // The consent screen names each checkbox by what it allows; its value is the scope.
    for (const scope of untick) await page.locator(`input[type=checkbox][value="${scope}"]`).uncheck();
    await page.getByRole('button', { name: 'Approve' }).click();
    return new URL((await redirected).url()).searchParams;
  });
}

/**
 * A member chooses the document of a Sign Document task on its page (the API has no way to: the
 * document and the signature's place are set in the web application). The default placement: a
 * signature page appended.
 */
export async function chooseDocumentToSign(appUrl, { orgId, portalId, taskId, fileName, email = 'admin@demo.test' }) {
  return withPage(async (page) => {
    const taskPage = `/org/${orgId}/vault/${portalId}/tasks/${taskId}`;
    await page.goto(`${appUrl}/sign-in?callbackUrl=${encodeURIComponent(taskPage)}`);
    await signIn(page, email);
    await page.waitForURL(`${appUrl}${taskPage}`);
    await page.getByRole('button', { name: 'Choose document' }).click();
    await page.getByLabel('PDF of this portal').selectOption({ label: fileName });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Change document' }).waitFor();
  });
}

/** A guest opens the task's signing page, types their name, agrees and signs. */
export async function signAsGuest(appUrl, { orgId, portalId, taskId, email, name }) {
  return withPage(async (page) => {
    const signPage = `/org/${orgId}/client/${portalId}/sign/${taskId}`;
    await page.goto(`${appUrl}/sign-in?callbackUrl=${encodeURIComponent(signPage)}`);
    await signIn(page, email);
    await page.waitForURL(`${appUrl}${signPage}`);
    await page.getByRole('radio', { name: 'Type my name' }).click();
    await page.getByLabel('Your full name').fill(name);
    await page.getByLabel('I agree to sign electronically').check();
    await page.getByRole('button', { name: 'Sign the document' }).click();
    // Signed (the page says so, or has refreshed to the signed task), or the form's error (named in
    // the failure, not left to a timeout).
    const done = page.getByText('Signed. Thank you!').or(page.getByText('This document is signed'));
    const refused = page.locator('form [role=alert], form [id$=-error]').filter({ hasText: /\S/ });
    await done.or(refused).first().waitFor({ timeout: 30_000 });
    if (!(await done.first().isVisible())) throw new Error(`the guest could not sign: ${await refused.allTextContents()}`);
  });
}
