import { expect, test } from './fixtures';
import { DEMO_USERS, expectAccessible, signIn } from './support';

test('an operator answers a support ticket in the product and the customer reads the reply', async ({ browser }) => {
  test.setTimeout(180_000);
  const customer = await (await browser.newContext()).newPage();
  await signIn(customer, DEMO_USERS.admin);
  await customer.goto('/support');
  await customer.getByLabel('Subject').fill('Operator journey question');
  await customer.getByLabel('Message').fill('How do I change the greeting of the widget?');
  await customer.getByRole('button', { name: 'Send ticket' }).click();
  await expect(customer.getByRole('listitem').filter({ hasText: 'Operator journey question' })).toContainText('Open');

  // Only operators (OPERATOR_EMAILS, the viewer in e2e/serve.mjs) have the console.
  await customer.goto('/operator');
  await expect(customer.getByRole('heading', { name: 'Page not found' })).toBeVisible();

  const operator = await (await browser.newContext()).newPage();
  await signIn(operator, DEMO_USERS.viewer);
  await operator.goto('/build');
  // By keyboard: the sidebar narrows when the pointer leaves it for the menu, which moves the menu under a click.
  await operator.getByRole('button', { name: 'My Account' }).focus();
  await operator.keyboard.press('Enter');
  await operator.getByRole('menuitem', { name: 'Operator' }).press('Enter');
  await expect(operator).toHaveURL(/\/operator$/);
  await operator.getByRole('button', { name: /Operator journey question/ }).click();
  await operator.getByLabel('Reply to the customer').fill('Open the widget settings and edit the greeting.');
  await operator.getByRole('button', { name: 'Send reply' }).click();
  await expect(operator.getByRole('list', { name: 'Conversation' })).toContainText('Open the widget settings');
  await expect(operator.getByRole('button', { name: /Operator journey question/ })).toContainText('Answered');
  await operator.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(operator);
  await operator.getByRole('button', { name: 'Payouts' }).click();
  await expect(operator.getByRole('heading', { name: 'Payable commissions' })).toBeVisible();
  await operator.getByRole('button', { name: 'Accounts' }).click();
  await operator.getByLabel('Search by agency name or owner email').fill('demo');
  await expect(operator.getByText(DEMO_USERS.admin).first()).toBeVisible();

  await customer.goto('/support');
  const ticket = customer.getByRole('listitem').filter({ hasText: 'Operator journey question' }).first();
  await expect(ticket).toContainText('Answered');
  await ticket.getByText('Operator journey question').click();
  await expect(ticket).toContainText('Switchboard support');
  await ticket.getByLabel('Your answer').fill('Thanks, that worked.');
  await ticket.getByRole('button', { name: 'Send answer' }).click();
  await expect(ticket).toContainText('Thanks, that worked.');
  await expectAccessible(customer);
});
