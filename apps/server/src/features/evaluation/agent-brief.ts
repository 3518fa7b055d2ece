import { and, asc, eq } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { findAgent } from '../agents/repo';
import { knowledgeChunks, knowledgeDocuments } from '../knowledge/schema';

/**
 * What question generation, the simulated user and the judge know of the agent under test: its
 * instructions, first message, a summary of its knowledge (document names and their opening
 * lines) and its tools. Bounded, so a large agent never makes every evaluation call expensive.
 */

const INSTRUCTIONS_CHARS = 4000;
const DOCUMENTS = 10;
const EXCERPT_CHARS = 200;

const clip = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
};

export interface AgentBriefInput {
  instructions: string;
  firstMessage?: string;
  knowledge?: { name: string; excerpt: string }[];
  tools?: { name: string; description: string }[];
}

export const formatAgentBrief = (input: AgentBriefInput): string =>
  [
    input.instructions.trim() ? `Instructions: ${clip(input.instructions, INSTRUCTIONS_CHARS)}` : '',
    input.firstMessage?.trim() ? `First message: ${clip(input.firstMessage, 500)}` : '',
    input.knowledge?.length
      ? `Knowledge documents:\n${input.knowledge
          .map((item) => `- ${clip(item.name, 120)}${item.excerpt ? `: ${clip(item.excerpt, EXCERPT_CHARS)}` : ''}`)
          .join('\n')}`
      : '',
    input.tools?.length
      ? `Tools it can call:\n${input.tools.map((tool) => `- ${tool.name}: ${clip(tool.description, 200)}`).join('\n')}`
      : '',
  ]
    .filter(Boolean)
    .join('\n');

/** The brief of one of the sub-account's agents ('' when it is not found there). */
export const agentBrief = async (deps: Deps, subaccountId: string, agentId: string): Promise<string> => {
  const agent = await findAgent(deps.db, agentId);
  if (!agent || agent.subaccountId !== subaccountId) return '';
  const documents = await deps.db
    .select({ id: knowledgeDocuments.id, name: knowledgeDocuments.name, excerpt: knowledgeChunks.content })
    .from(knowledgeDocuments)
    .leftJoin(
      knowledgeChunks,
      and(eq(knowledgeChunks.documentId, knowledgeDocuments.id), eq(knowledgeChunks.position, 0)),
    )
    .where(and(eq(knowledgeDocuments.agentId, agent.id), eq(knowledgeDocuments.ready, true)))
    .orderBy(asc(knowledgeDocuments.createdAt))
    .limit(DOCUMENTS);
  return formatAgentBrief({
    instructions: agent.systemPrompt,
    firstMessage: agent.firstMessage,
    knowledge: documents.map((item) => ({ name: item.name, excerpt: item.excerpt ?? '' })),
    tools: agent.tools.map((tool) => ({ name: tool.name, description: tool.description })),
  });
};
