import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../platform/mail.schema';
import { fromHeader } from '../../platform/mailer';
import { type SeededAgency, seedAgency } from '../../seed';
import { startTestApp, type TestApp } from '../../testing/harness';

/**
 * Mails a client receives (the sign-in link from its agency's page, an invitation as a client)
 * carry the agency's name in the text and as the sender's name, and never the platform's name
 * when the plan includes white-label branding.
 */
let t: TestApp;
let white: SeededAgency;
let plain: SeededAgency;

beforeAll(async () => {
  t = await startTestApp();
  white = await seedAgency(t.deps.db, {
    accountName: 'Whitelabel Works',
    owner: { email: 'owner@wl.test', name: 'WL Owner' },
    subaccounts: ['WL HQ', 'Dentist'],
    plan: 'sb_scale_month_10000',
    users: [{ email: 'client@wl.test', name: 'WL Client', role: 'client', subaccounts: ['Dentist'] }],
  });
  plain = await seedAgency(t.deps.db, {
    accountName: 'Plain Agency',
    owner: { email: 'owner@plain.test', name: 'Plain Owner' },
    subaccounts: ['Plain HQ'],
    users: [{ email: 'client@plain.test', name: 'Plain Client', role: 'client' }],
  });
  const owner = await t.cookieFor(white.ownerId);
  const patch = await t.app.inject({
    method: 'PATCH',
    url: `/api/accounts/${white.accountId}/branding`,
    headers: { cookie: owner },
    payload: { slug: 'wl-works', brandName: 'WL Works', emailSenderName: 'WL Works Team' },
  });
  expect(patch.statusCode, patch.body).toBe(200);
  const plainOwner = await t.cookieFor(plain.ownerId);
  await t.app.inject({
    method: 'PATCH',
    url: `/api/accounts/${plain.accountId}/branding`,
    headers: { cookie: plainOwner },
    payload: { slug: 'plain-agency' },
  });
});
afterAll(() => t.close());

const lastMailTo = async (email: string) => {
  const [mail] = await t.deps.db
    .select()
    .from(outbox)
    .where(eq(outbox.to, email))
    .orderBy(desc(outbox.createdAt))
    .limit(1);
  if (!mail) throw new Error(`no mail to ${email}`);
  return mail;
};

const askLink = async (email: string, agency?: string) => {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/magic-link',
    payload: { email, ...(agency ? { agency } : {}) },
  });
  expect(response.statusCode, response.body).toBe(200);
  return lastMailTo(email);
};

const wholeMail = (mail: { subject: string; text: string; html: string; fromName: string | null }) =>
  `${mail.fromName} ${mail.subject} ${mail.text} ${mail.html}`;

describe('the sign-in link a client receives', () => {
  it('from its agency page names the agency, under its sender name, and no Switchboard with white-label', async () => {
    const mail = await askLink('client@wl.test', 'wl-works');
    expect(mail.fromName).toBe('WL Works Team');
    expect(mail.subject).toBe('Your WL Works sign-in link');
    expect(mail.text).toContain('Sign in to WL Works');
    expect(wholeMail(mail)).not.toMatch(/switchboard/i);
    expect(mail.link).toContain('/auth/confirm?token=');
    expect(mail.link).toContain('&a=wl-works');
  });

  it('is branded for a client-only person signing in from the platform page too', async () => {
    const mail = await askLink('client@wl.test');
    expect(mail.subject).toBe('Your WL Works sign-in link');
    expect(wholeMail(mail)).not.toMatch(/switchboard/i);
  });

  it('says "Powered by Switchboard" when the plan has no white-label branding', async () => {
    const mail = await askLink('client@plain.test', 'plain-agency');
    expect(mail.subject).toBe('Your Plain Agency sign-in link');
    expect(mail.fromName).toBe('Plain Agency');
    expect(mail.text).toContain('Powered by Switchboard');
  });

  it("carries no agency's brand to a person who is not one of its people", async () => {
    const mail = await askLink('owner@plain.test', 'wl-works');
    expect(mail.subject).toBe('Your Switchboard sign-in link');
    expect(mail.fromName).toBeNull();
    expect(wholeMail(mail)).not.toContain('WL Works');
  });
});

describe('the invitation a client receives', () => {
  const invite = async (email: string, role: string) => {
    const owner = await t.cookieFor(white.ownerId);
    const dentist = white.subaccountIds[1] as string;
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/subaccounts/${dentist}/members`,
      headers: { cookie: owner },
      payload: { email, role },
    });
    expect(response.statusCode, response.body).toBe(200);
    return lastMailTo(email);
  };

  it('names the agency, links to its sign-in page, and never the platform with white-label', async () => {
    const mail = await invite('new.client@wl.test', 'client');
    expect(mail.fromName).toBe('WL Works Team');
    expect(mail.subject).toBe('WL Works invited you to your Dentist portal');
    expect(mail.text).toContain('WL Works invited you');
    expect(mail.link).toMatch(/\/a\/wl-works$/);
    expect(wholeMail(mail)).not.toMatch(/switchboard/i);
  });

  it("gives an invited client who has not signed up yet the agency's sign-in link", async () => {
    const mail = await askLink('new.client@wl.test');
    expect(mail.subject).toBe('Your WL Works sign-in link');
    expect(mail.fromName).toBe('WL Works Team');
    expect(wholeMail(mail)).not.toMatch(/switchboard/i);
  });

  it('keeps the platform invitation for the agency staff', async () => {
    const mail = await invite('new.member@wl.test', 'member');
    expect(mail.subject).toContain('on Switchboard');
    expect(mail.fromName).toBeNull();
  });
});

describe('the From header', () => {
  it("puts the sender name before MAIL_FROM's address, without quotes or line breaks", () => {
    expect(fromHeader('Switchboard <no-reply@sb.test>', 'Acme "Team"\r\n')).toBe('"Acme Team" <no-reply@sb.test>');
    expect(fromHeader('no-reply@sb.test', 'Acme')).toBe('"Acme" <no-reply@sb.test>');
    expect(fromHeader('Switchboard <no-reply@sb.test>')).toBe('Switchboard <no-reply@sb.test>');
  });
});
