import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { newId } from '../../platform/ids';
import { type AppInfo, type ComposioClient, ComposioError, type ExecuteInput } from './composio-client';
import { sandboxAppRecords } from './schema';

/**
 * The sandbox catalogue, used when COMPOSIO_API_KEY is not set (also in production, where every
 * screen labels it "Sandbox"): three apps whose tools really work, against the sandbox_app_records
 * table of this project's database. Nothing reaches a real calendar, CRM or mailbox.
 */
const APPS: AppInfo[] = [
  {
    slug: 'sandbox_calendar',
    name: 'Calendar',
    description: 'A sandbox calendar: lists free slots and books them (09:00 to 17:00, one hour each).',
    authKind: 'oauth',
    logo: null,
  },
  {
    slug: 'sandbox_crm',
    name: 'CRM',
    description: 'A sandbox CRM: creates leads and contacts and finds them by email or name.',
    authKind: 'api_key',
    logo: null,
  },
  {
    slug: 'sandbox_email',
    name: 'Email',
    description: 'A sandbox mailbox: sends emails to an outbox that nobody receives.',
    authKind: 'oauth',
    logo: null,
  },
];

const DATE = { type: 'string', format: 'date', description: 'The day, as YYYY-MM-DD' };
const TIME = { type: 'string', description: 'The start time, as HH:MM (24-hour clock)' };

/** The tools in Composio's own shape (slug, input_parameters, version, tags), converted like real ones. */
const TOOLS: Record<string, unknown[]> = {
  sandbox_calendar: [
    {
      slug: 'SANDBOX_CALENDAR_LIST_FREE_SLOTS',
      tags: ['readOnlyHint'],
      name: 'List free slots',
      description: 'Lists the free one-hour slots of a day.',
      input_parameters: { type: 'object', properties: { date: DATE }, required: ['date'] },
      version: '1',
    },
    {
      slug: 'SANDBOX_CALENDAR_BOOK_SLOT',
      tags: ['createHint'],
      name: 'Book a slot',
      description: 'Books a free one-hour slot for a person.',
      input_parameters: {
        type: 'object',
        properties: {
          date: DATE,
          time: TIME,
          attendee: { type: 'string', description: 'Who the booking is for' },
          email: { type: 'string', description: "The attendee's email address" },
        },
        required: ['date', 'time'],
      },
      version: '1',
    },
  ],
  sandbox_crm: [
    {
      slug: 'SANDBOX_CRM_CREATE_CONTACT',
      tags: ['createHint'],
      name: 'Create a lead or contact',
      description: 'Creates a lead or contact in the CRM.',
      input_parameters: {
        type: 'object',
        properties: {
          name: { type: 'string', description: "The person's name" },
          email: { type: 'string', description: "The person's email address" },
          phone: { type: 'string', description: "The person's phone number" },
          notes: { type: 'string', description: 'What the person asked about' },
        },
        required: ['name'],
      },
      version: '1',
    },
    {
      slug: 'SANDBOX_CRM_FIND_CONTACT',
      tags: ['readOnlyHint'],
      name: 'Find a contact',
      description: 'Finds contacts whose name or email contains the query.',
      input_parameters: {
        type: 'object',
        properties: { query: { type: 'string', description: 'A name or email to look for' } },
        required: ['query'],
      },
      version: '1',
    },
  ],
  sandbox_email: [
    {
      slug: 'SANDBOX_EMAIL_SEND_EMAIL',
      tags: ['createHint'],
      name: 'Send an email',
      description: 'Sends an email (to the sandbox outbox).',
      input_parameters: {
        type: 'object',
        properties: {
          to: { type: 'string', description: 'The recipient address' },
          subject: { type: 'string', description: 'The subject line' },
          body: { type: 'string', description: 'The message' },
        },
        required: ['to', 'subject', 'body'],
      },
      version: '1',
    },
  ],
};

export const SANDBOX_HOURS = [9, 10, 11, 12, 13, 14, 15, 16];

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

const dayOf = (value: unknown): string => {
  const day = text(value);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) {
    throw new ComposioError('tool', 'Give the day as YYYY-MM-DD', 'date');
  }
  return day;
};

const timeOf = (value: unknown): string => {
  const match = /^([01]?\d|2[0-3])[:.]([0-5]\d)$/.exec(text(value));
  if (!match) throw new ComposioError('tool', 'Give the time as HH:MM', 'time');
  const hour = Number(match[1]);
  if (match[2] !== '00' || !SANDBOX_HOURS.includes(hour)) {
    throw new ComposioError('tool', 'Slots start on the hour between 09:00 and 16:00', 'time');
  }
  return `${String(hour).padStart(2, '0')}:00`;
};

export const createSandboxCatalogue = (db: Db): ComposioClient => {
  const bookedTimes = async (connectionId: string, day: string) => {
    const rows = await db
      .select({ slotKey: sandboxAppRecords.slotKey })
      .from(sandboxAppRecords)
      .where(
        and(eq(sandboxAppRecords.connectionId, connectionId), sql`${sandboxAppRecords.slotKey} like ${`${day}T%`}`),
      );
    return new Set(rows.map((row) => row.slotKey?.slice(11)));
  };

  const insert = async (
    input: ExecuteInput,
    kind: 'booking' | 'contact' | 'email',
    data: Record<string, unknown>,
    slotKey: string | null = null,
  ) => {
    const id = newId('sandboxRecord');
    const rows = await db
      .insert(sandboxAppRecords)
      .values({ id, subaccountId: input.subaccountId, connectionId: input.connectionId, kind, data, slotKey })
      .onConflictDoNothing()
      .returning({ id: sandboxAppRecords.id });
    return rows.length ? id : null;
  };

  const run = async (input: ExecuteInput): Promise<unknown> => {
    const args = input.arguments;
    switch (input.toolSlug) {
      case 'SANDBOX_CALENDAR_LIST_FREE_SLOTS': {
        const day = dayOf(args.date);
        const booked = await bookedTimes(input.connectionId, day);
        const free = SANDBOX_HOURS.map((hour) => `${String(hour).padStart(2, '0')}:00`).filter((t) => !booked.has(t));
        return { date: day, freeSlots: free };
      }
      case 'SANDBOX_CALENDAR_BOOK_SLOT': {
        const day = dayOf(args.date);
        const time = timeOf(args.time);
        const data = { date: day, time, attendee: text(args.attendee) || 'Guest', email: text(args.email) || null };
        const id = await insert(input, 'booking', data, `${day}T${time}`);
        if (!id) throw new ComposioError('tool', `${day} at ${time} is already booked; pick another slot`, 'time');
        return { booked: true, bookingId: id, ...data };
      }
      case 'SANDBOX_CRM_CREATE_CONTACT': {
        const name = text(args.name);
        if (!name) throw new ComposioError('tool', 'name is required', 'name');
        const data = {
          name,
          email: text(args.email) || null,
          phone: text(args.phone) || null,
          notes: text(args.notes) || null,
        };
        const id = await insert(input, 'contact', data);
        return { created: true, contactId: id, ...data };
      }
      case 'SANDBOX_CRM_FIND_CONTACT': {
        const query = text(args.query).toLowerCase();
        const rows = await db
          .select()
          .from(sandboxAppRecords)
          .where(and(eq(sandboxAppRecords.connectionId, input.connectionId), eq(sandboxAppRecords.kind, 'contact')))
          .orderBy(desc(sandboxAppRecords.createdAt))
          .limit(200);
        const found = rows
          .filter((row) => `${row.data.name ?? ''} ${row.data.email ?? ''}`.toLowerCase().includes(query))
          .slice(0, 10)
          .map((row) => ({ contactId: row.id, ...row.data }));
        return { contacts: found };
      }
      case 'SANDBOX_EMAIL_SEND_EMAIL': {
        const to = text(args.to);
        if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(to))
          throw new ComposioError('tool', 'Enter a valid email address', 'to');
        const data = { to, subject: text(args.subject), body: text(args.body) };
        const id = await insert(input, 'email', data);
        return { sent: true, messageId: id, outbox: 'sandbox' };
      }
      default:
        throw new ComposioError('tool', `The sandbox has no tool ${input.toolSlug}`);
    }
  };

  return {
    sandbox: true,
    listApps: async () => APPS,
    findApp: async (slug) => APPS.find((app) => app.slug === slug) ?? null,
    connect: async (input) => {
      const externalId = `sandbox_${input.app.slug}_${input.userId}`;
      if (input.app.authKind === 'api_key') {
        if ((input.apiKey ?? '').length < 8)
          throw new ComposioError('invalid', 'The sandbox accepts any API key of 8 or more characters', 'apiKey');
        return { externalId, status: 'connected', redirectUrl: null };
      }
      // No consent screen to visit: the sandbox sends the browser straight to the callback.
      return { externalId, status: 'pending_connection', redirectUrl: input.callbackUrl };
    },
    connectionStatus: async () => 'connected',
    disconnect: async () => {},
    listTools: async (appSlug) => TOOLS[appSlug] ?? [],
    execute: run,
  };
};
