import { expect, test } from './fixtures';
import { DEMO_USERS, signIn } from './support';

test('an admin invites, changes a role, removes a member, and the owner stays protected', async ({ page }) => {
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

  // The agency's owner cannot be demoted or removed: the row shows the Owner badge, not the controls.
  const ownerRow = page.getByRole('listitem').filter({ hasText: DEMO_USERS.admin });
  await expect(ownerRow.getByText('Owner', { exact: true })).toBeVisible();
  await expect(page.getByLabel(`Role of ${DEMO_USERS.admin}`)).toHaveCount(0);
  await expect(page.getByRole('button', { name: `Remove ${DEMO_USERS.admin}` })).toHaveCount(0);

  // Ownership moves only by the owner's transfer, to an admin, after a confirmation.
  await page.getByLabel(`Role of ${DEMO_USERS.viewer}`).selectOption('admin');
  await expect(page.getByLabel(`Role of ${DEMO_USERS.viewer}`)).toHaveValue('admin');
  await page
    .getByRole('listitem')
    .filter({ hasText: DEMO_USERS.viewer })
    .getByRole('button', { name: 'Make owner' })
    .click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText(`${DEMO_USERS.viewer} becomes the owner of this agency`);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);

  await page.getByLabel(`Role of ${DEMO_USERS.viewer}`).selectOption('viewer');
  await expect(page.getByLabel(`Role of ${DEMO_USERS.viewer}`)).toHaveValue('viewer');
  await page.reload();
  await expect(page.getByLabel(`Role of ${DEMO_USERS.viewer}`)).toHaveValue('viewer');
});
