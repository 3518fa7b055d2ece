import { modelToolName } from '@switchboard/core';
import { and, asc, eq } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { type AgentRow, findAgent } from '../agents/repo';
import { knowledgeChunks, knowledgeDocuments } from '../knowledge/schema';

/**
 * What question generation, the simulated user and the judge know of the agent under test: its
 * instructions, first message, a summary of its knowledge (document names and their opening
 * lines) and its tools. Bounded, so a large agent never makes every evaluation call expensive.
 */

const INSTRUCTIONS_CHARS = 4000;
const DOCUMENTS = 10;
const EXCERPT_CHARS = 200;
const TOOLS = 40;
const SOURCE_LABELS = { composio: 'app', mcp: 'MCP server' } as const;

const clip = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
};

export interface AgentBriefInput {
  instructions: string;
  firstMessage?: string;
  knowledge?: { name: string; excerpt: string }[];
  /** Every tool the model can call, by the name it calls it (HTTP tools, app tools, MCP tools). */
  tools?: { name: string; description: string; source?: string }[];
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
      ? `Tools it can call:\n${input.tools
          .slice(0, TOOLS)
          .map(
            (tool) =>
              `- ${tool.name}${tool.source ? ` (${tool.source})` : ''}${tool.description ? `: ${clip(tool.description, 200)}` : ''}`,
          )
          .join('\n')}${input.tools.length > TOOLS ? `\n- and ${input.tools.length - TOOLS} more` : ''}`
      : '',
  ]
    .filter(Boolean)
    .join('\n');

/**
 * The tools the agent's model is offered, as it is offered them (conversations/reply.ts): its HTTP
 * tools and its enabled app tools (Composio actions, MCP server tools) under their model names;
 * an app tool of the same name replaces the HTTP tool, as in the reply.
 */
export const agentToolList = (agent: Pick<AgentRow, 'tools' | 'enabledTools'>): AgentBriefInput['tools'] => {
  const byName = new Map<string, { name: string; description: string; source?: string }>();
  for (const tool of agent.tools) byName.set(tool.name, { name: tool.name, description: tool.description });
  for (const appTool of agent.enabledTools) {
    const name = modelToolName(appTool.slug);
    byName.set(name, { name, description: appTool.description, source: SOURCE_LABELS[appTool.source] });
  }
  return [...byName.values()];
};

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
    tools: agentToolList(agent),
  });
};
