import { expect, test } from '@playwright/test';
import { DEMO_USERS, signIn } from './support';

test('an admin invites, changes a role, removes a member and sees the error dialog for the last admin', async ({
  page,
}) => {
  await signIn(page, DEMO_USERS.admin);
  const subaccount = await page.evaluate(async () => {
    const response = await fetch('/api/accounts');
    const body = (await response.json()) as { accounts: { subaccounts: { id: string; name: string }[] }[] };
    return body.accounts[0]?.subaccounts.find((item) => item.name === 'Sunrise Solar')?.id;
  });
  await page.goto(`/${subaccount}/team`);
  await expect(page.getByRole('heading', { name: 'Team', exact: true })).toBeVisible();

  await page.getByRole('button', { name: 'Invite' }).click();
  await expect(page.getByText('Email is required')).toBeVisible();
  await page.getByPlaceholder('teammate@agency.com').fill('  New.Person@Example.com ');
  await page.getByLabel('Role', { exact: true }).selectOption('viewer');
  await page.getByRole('button', { name: 'Invite' }).click();
  await expect(page.getByText('new.person@example.com · invitation pending')).toBeVisible();

  await page.getByLabel(`Role of ${DEMO_USERS.viewer}`).selectOption('member');
  await expect(page.getByLabel(`Role of ${DEMO_USERS.viewer}`)).toHaveValue('member');
  await page.reload();
  await expect(page.getByLabel(`Role of ${DEMO_USERS.viewer}`)).toHaveValue('member');

  await page.getByRole('button', { name: 'Remove new.person@example.com' }).click();
  await expect(page.getByText('new.person@example.com')).toHaveCount(0);

  await page.getByLabel(`Role of ${DEMO_USERS.admin}`).selectOption('viewer');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('A sub-account needs at least one admin');
  await expect(dialog.getByText('Reference Code')).toBeVisible();
  await expect(dialog.locator('code').first()).toHaveText(/^[0-9A-F]{32}$/);
  await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();
  await page.reload();
  await expect(page.getByLabel(`Role of ${DEMO_USERS.admin}`)).toHaveValue('admin');

  await page.getByLabel(`Role of ${DEMO_USERS.viewer}`).selectOption('viewer');
  await expect(page.getByLabel(`Role of ${DEMO_USERS.viewer}`)).toHaveValue('viewer');
  await page.reload();
  await expect(page.getByLabel(`Role of ${DEMO_USERS.viewer}`)).toHaveValue('viewer');
});
