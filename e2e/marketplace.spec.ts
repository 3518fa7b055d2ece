import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { DEMO_USERS, expectAccessible, latestLinkFor, signIn } from './support';

const DESCRIPTION =
  'Our clinic needs an AI receptionist that books appointments, answers insurance questions and hands over to staff.';

/** Continue in the wizard; expects the given step to be reached. */
const next = async (page: Page, step: string) => {
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText(new RegExp(`Step \\d+ of 10: ${step}$`))).toBeVisible();
};

test('a visitor posts a project through the whole wizard, signs in by email and finds it in browse', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const email = `dana.${Date.now()}@smile-dental.test`;
  await page.goto('/marketplace');
  await expect(page.getByRole('heading', { name: 'AI Marketplace' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Create AI Project' }).click();
  const wizard = page.getByRole('dialog', { name: 'Create AI Project' });
  await expect(wizard.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '10');
  // Escape does not dismiss it.
  await page.keyboard.press('Escape');
  await expect(wizard).toBeVisible();
  await expectAccessible(page);

  // Type: no validation, but a business request is chosen here.
  await wizard.getByLabel(/Business request/).check();
  await next(page, 'Title');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(wizard.getByRole('alert')).toHaveText('Please enter a project title');
  await wizard.getByLabel('Project title').fill('Abc');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(wizard.getByRole('alert')).toHaveText('Title must be at least 5 characters long.');
  await wizard.getByLabel('Project title').fill('AI receptionist for <Smile> Dental');
  await next(page, 'Desc');
  await wizard.getByLabel('Description').fill('Too short');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(wizard.getByRole('alert')).toHaveText('Description must be at least 50 characters long.');
  await wizard.getByLabel('Description').fill(DESCRIPTION);
  await next(page, 'Time');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(wizard.getByRole('alert')).toHaveText('Please enter a timeframe');
  await wizard.getByRole('button', { name: '2-4 weeks' }).click();
  await next(page, 'Category');
  await wizard.getByRole('button', { name: 'Chatbots' }).click();
  await next(page, 'Image');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(wizard.getByRole('alert')).toHaveText('Please select a project image');
  await wizard.getByRole('radio', { name: /Image 1/ }).click();
  await next(page, 'Avatar');
  await wizard.getByRole('radio', { name: 'Avatar 3' }).click();
  await expect(wizard.getByRole('button', { name: 'Change avatar' })).toBeVisible();
  await next(page, 'Budget');
  await wizard.getByRole('button', { name: '$1,000' }).click();
  await wizard.getByLabel('Monthly').check();
  await next(page, 'Contact');
  await wizard.getByLabel('Your name').fill('Dana Smile');
  await wizard.getByLabel('Business name').fill('Smile Dental');
  await wizard.getByLabel('Email').fill('not-an-address');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(wizard.getByRole('alert')).toHaveText('Please enter a valid email address');
  await wizard.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(wizard.getByRole('alert')).toHaveText('You must accept the terms of service to continue');
  await expect(wizard.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
  await wizard.getByLabel(/I accept the/).check();
  await page.getByRole('button', { name: 'Continue' }).click();

  // Pre-registered, the project kept locally, and a sign-in link mailed.
  await expect(page.getByRole('dialog', { name: 'Check your email' })).toBeVisible();
  const pending = await page.evaluate(() => window.localStorage.getItem('marketplace:pendingProject'));
  expect(pending).toContain('Smile');
  const link = await latestLinkFor(page, email);
  await page.goto(link);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/marketplace');

  // Back at the review step with the kept project; the kept copy is cleared.
  const review = page.getByRole('dialog', { name: 'Create AI Project' });
  await expect(review.getByText('Step 10 of 10: Review')).toBeVisible();
  await expect(review.getByText('$1,000 a month')).toBeVisible();
  expect(await page.evaluate(() => window.localStorage.getItem('marketplace:pendingProject'))).toBeNull();
  await review.getByRole('button', { name: 'Submit Project' }).click();
  await expect(page.getByRole('dialog', { name: 'Project Created!' })).toContainText(
    'Your project has been successfully submitted and is now live.',
  );
  await expect(page.getByRole('dialog')).toHaveCount(0, { timeout: 5000 });
  // The text is shown as text, never as markup.
  await expect(page.getByRole('link', { name: 'AI receptionist for <Smile> Dental' })).toBeVisible();

  // The daily limit: a second project today is accepted, a third is refused with the counts.
  const second = await page.evaluate(async () => {
    const subaccount = window.localStorage.getItem('sb:current-subaccount');
    const response = await fetch('/api/marketplace/projects', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(subaccount ? { 'x-subaccount-id': JSON.parse(subaccount) } : {}),
      },
      body: JSON.stringify({
        title: 'Second request today',
        description: 'A second project posted the same day, which the daily limit of two still allows.',
        timeframe: '1-2 weeks',
        priceValue: 200,
        priceType: 'one-time',
        image: '/marketplace/images/data.svg',
        icon: '/marketplace/avatars/avatar-01.svg',
        category: 'Data',
        marketplaceType: 'business',
        authorName: 'Dana Smile',
        email: null,
        companyName: 'Smile Dental',
      }),
    });
    return { status: response.status, body: await response.json() };
  });
  expect(second.status).toBe(201);
  expect(second.body).toMatchObject({ projectsToday: 2, dailyLimit: 2 });
  await page.getByRole('button', { name: 'Create AI Project' }).click();
  await wizard.getByLabel(/Business request/).check();
  await next(page, 'Title');
  await wizard.getByLabel('Project title').fill('Third request today');
  await next(page, 'Desc');
  await wizard.getByLabel('Description').fill(DESCRIPTION);
  await next(page, 'Time');
  await wizard.getByRole('button', { name: 'Permanent Position' }).click();
  await next(page, 'Category');
  await wizard.getByRole('button', { name: 'Other' }).click();
  await next(page, 'Image');
  await wizard.getByRole('radio', { name: /Image 9/ }).click();
  await next(page, 'Avatar');
  await wizard.getByRole('radio', { name: 'Avatar 1', exact: true }).click();
  await next(page, 'Budget');
  await wizard.getByLabel('Budget (USD)').fill('350');
  await next(page, 'Contact');
  // The applicant's name and business are remembered.
  await expect(wizard.getByLabel('Your name')).toHaveValue('Dana Smile');
  await next(page, 'Review');
  await wizard.getByRole('button', { name: 'Submit Project' }).click();
  await expect(wizard.getByRole('alert')).toHaveText(
    "Daily limit reached! You can only create 2 projects per day. You've already created 2 projects today. Please try again tomorrow.",
  );
  await wizard.getByRole('button', { name: 'Close' }).click();

  // Browse: search, a category and the author's own list; the page at 390 px in both themes.
  await page.getByLabel('Search projects').fill('receptionist');
  await expect(page.getByRole('link', { name: 'Second request today' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'AI receptionist for <Smile> Dental' })).toBeVisible();
  await page.getByLabel('Search projects').fill('');
  await page.getByRole('button', { name: 'Data', exact: true }).click();
  await expect(page.getByRole('link', { name: 'Second request today' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'AI receptionist for <Smile> Dental' })).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page);
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  await expectAccessible(page);
});

test('an agency answers a project by email without seeing the address, and the author closes it', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // The demo agency (Growth plan) posts an agency offer.
  await signIn(page, DEMO_USERS.admin);
  await page.goto('/marketplace');
  const posted = await page.evaluate(async () => {
    const subaccount = window.localStorage.getItem('sb:current-subaccount');
    const response = await fetch('/api/marketplace/projects', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(subaccount ? { 'x-subaccount-id': JSON.parse(subaccount) } : {}),
      },
      body: JSON.stringify({
        title: 'Solar lead qualification bots',
        description: 'We build and run lead qualification agents for solar installers, on the web and by SMS.',
        timeframe: '1-2 months',
        priceValue: 2500,
        priceType: 'one-time',
        image: '/marketplace/images/automation.svg',
        icon: '/marketplace/avatars/avatar-05.svg',
        category: 'Automation',
        marketplaceType: 'agency',
        authorName: 'Sunrise Team',
        email: null,
        companyName: 'Sunrise Agency',
      }),
    });
    return (await response.json()) as { project: { id: string } };
  });
  await page.goto(`/marketplace/${posted.project.id}`);
  await expect(page.getByRole('heading', { name: 'Solar lead qualification bots' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Close project' })).toBeVisible();
  await expectAccessible(page);

  // A member of the demo agency is another user: they answer the offer.
  const other = await browser.newContext({ baseURL: page.url().split('/marketplace')[0] });
  const visitor = await other.newPage();
  await signIn(visitor, DEMO_USERS.member);
  await visitor.goto(`/marketplace/${posted.project.id}`);
  await expect(visitor.getByRole('complementary', { name: 'Author' })).toContainText('Sunrise Team');
  await expect(visitor.locator('body')).not.toContainText(DEMO_USERS.admin);
  await visitor.getByLabel('Your message').fill('Short');
  await visitor.getByRole('button', { name: 'Send message' }).click();
  await expect(visitor.getByText('Write at least 20 characters so the author knows what you offer.')).toBeVisible();
  await visitor
    .getByLabel('Your message')
    .fill('We would like you to build a qualification bot for our three branches.');
  await visitor.getByRole('button', { name: 'Send message' }).click();
  await expect(visitor.getByText('Your message was sent to the author by email.')).toBeVisible();
  const mailbox = (await (await page.request.get('/api/dev/mailbox')).json()) as {
    messages: { to: string; subject: string }[];
  };
  expect(
    mailbox.messages.some((m) => m.to === DEMO_USERS.admin && m.subject.includes('Solar lead qualification')),
  ).toBe(true);
  await other.close();

  // The author closes the project: it leaves browse.
  await page.reload();
  await expect(page.getByText('1 response so far')).toBeVisible();
  await page.getByRole('button', { name: 'Close project' }).click();
  await expect(page.getByRole('button', { name: 'Reopen project' })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page);
});
