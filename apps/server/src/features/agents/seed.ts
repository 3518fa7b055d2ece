import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { newId } from '../../platform/ids';
import { accounts, subaccounts, users } from '../tenancy/schema';
import type { AgentRow, NewAgentRow } from './repo';
import { insertAgent, listAgents } from './repo';

/** Creates an agent with the defaults (shared by the seed script and the tests). */
export const seedAgent = async (
  db: Db,
  input: { accountId: string; subaccountId: string } & Partial<Omit<NewAgentRow, 'accountId' | 'subaccountId'>>,
): Promise<AgentRow> =>
  insertAgent(db, {
    id: newId('agent'),
    name: 'Support Assistant',
    systemPrompt: 'You are a friendly support assistant. Answer briefly and never invent facts.',
    firstMessage: 'Hello! How can I help you today?',
    suggestedResponses: ['What can you do?', 'How does it work?', 'What are the pricing plans?'],
    ...input,
  });

const DEMO_AGENTS: Record<
  string,
  { name: string; systemPrompt: string; firstMessage: string; suggestedResponses: string[] }
> = {
  'Sunrise Solar': {
    name: 'Sunrise Solar Assistant',
    systemPrompt:
      'You are the assistant of Sunrise Solar, a residential solar installer. Help homeowners understand solar panels, savings, financing and installation, and offer a free roof assessment. Never invent prices.',
    firstMessage: 'Hi! I can help you find out whether solar is right for your home. What would you like to know?',
    suggestedResponses: [
      'How much can I save with solar?',
      'How long does installation take?',
      'Do you offer financing?',
    ],
  },
  'Harbor Dental': {
    name: 'Harbor Dental Receptionist',
    systemPrompt:
      'You are the receptionist of Harbor Dental, a family dental clinic. Answer questions about treatments, opening hours and insurance, and help patients request an appointment. Never give medical advice.',
    firstMessage: 'Welcome to Harbor Dental! How can I help you today?',
    suggestedResponses: ['Can I book a cleaning?', 'What are your opening hours?', 'Do you accept my insurance?'],
  },
};

/**
 * Makes sure every sub-account of the demo agency has an agent (runs at each start with SEED_DEMO,
 * so a data folder seeded before agents existed gets them too).
 */
export const ensureDemoAgents = async (db: Db, ownerEmail: string): Promise<number> => {
  const rows = await db
    .select({ accountId: accounts.id, subaccountId: subaccounts.id, name: subaccounts.name })
    .from(users)
    .innerJoin(accounts, eq(accounts.ownerUserId, users.id))
    .innerJoin(subaccounts, eq(subaccounts.accountId, accounts.id))
    .where(eq(users.email, ownerEmail));
  let created = 0;
  for (const row of rows) {
    const existing = await listAgents(db, row.subaccountId, 1, 1);
    if (existing.total > 0) continue;
    const preset = DEMO_AGENTS[row.name];
    await seedAgent(db, { accountId: row.accountId, subaccountId: row.subaccountId, ...(preset ?? {}) });
    created += 1;
  }
  return created;
};
