/**
 * The layout of the system prompt an agent reply sends. Real models read it as prose; the offline
 * model parses it back to answer from the instructions, the first message and the knowledge.
 */
export const SECTION = {
  firstMessage: '## First message',
  knowledge: '## Knowledge',
} as const;

export interface KnowledgeExcerpt {
  documentId: string;
  name: string;
  excerpt: string;
}

export const composeSystemPrompt = (input: {
  instructions: string;
  firstMessage?: string;
  knowledge?: KnowledgeExcerpt[];
}): string => {
  const parts = [input.instructions.trim()];
  if (input.firstMessage?.trim()) {
    parts.push(`${SECTION.firstMessage}\nYou greeted the user with: ${input.firstMessage.trim()}`);
  }
  if (input.knowledge?.length) {
    const entries = input.knowledge.map((item) => `[source: ${item.name}]\n${item.excerpt.trim()}`);
    parts.push(
      `${SECTION.knowledge}\nAnswer from these excerpts of the agent's documents when they are relevant; say which document you used.\n\n${entries.join('\n\n')}`,
    );
  }
  return parts.filter(Boolean).join('\n\n');
};

export interface ParsedSystemPrompt {
  instructions: string;
  firstMessage: string;
  knowledge: { name: string; excerpt: string }[];
}

export const parseSystemPrompt = (system: string): ParsedSystemPrompt => {
  const knowledgeAt = system.indexOf(SECTION.knowledge);
  const firstAt = system.indexOf(SECTION.firstMessage);
  const cuts = [knowledgeAt, firstAt].filter((at) => at >= 0);
  const instructions = (cuts.length ? system.slice(0, Math.min(...cuts)) : system).trim();
  let firstMessage = '';
  if (firstAt >= 0) {
    const end = knowledgeAt > firstAt ? knowledgeAt : system.length;
    firstMessage = system
      .slice(firstAt + SECTION.firstMessage.length, end)
      .replace('You greeted the user with:', '')
      .trim();
  }
  const knowledge: { name: string; excerpt: string }[] = [];
  if (knowledgeAt >= 0) {
    const body = system.slice(knowledgeAt);
    const pattern = /\[source: ([^\]\n]+)\]\n([\s\S]*?)(?=\n\n\[source: |$)/g;
    for (const match of body.matchAll(pattern)) {
      knowledge.push({ name: match[1] ?? '', excerpt: (match[2] ?? '').trim() });
    }
  }
  return { instructions, firstMessage, knowledge };
};
