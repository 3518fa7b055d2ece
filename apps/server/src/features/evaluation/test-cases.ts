import {
  REAL_CONVERSATIONS_TEMPLATE,
  REFERENCE_MAX,
  REPLAY_TURNS_MAX,
  type TAddTestCaseRequest,
  type TAddTestCaseResponse,
  type TQuestion,
  ZTemplateData,
} from '@switchboard/core';
import { and, asc, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import type { Deps } from '../../platform/deps';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { findThread } from '../conversations/repo';
import { messages } from '../conversations/schema';
import { subaccounts } from '../tenancy/schema';
import { evaluationTemplates } from './schema';

/**
 * "Add to test set": a real conversation (any channel) becomes a replayable case. Its last answered
 * user message is the question, the turns before it are replayed to the agent first, and the
 * answer it got (the agent's or a person's) is the reference: a similarity check against it, and
 * success criteria that quote it for the judge.
 */

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 3)}...` : text);

export const caseFromMessages = (
  rows: { id: string; role: 'user' | 'assistant' | 'human'; content: string }[],
  source: string,
): TQuestion => {
  const turns = rows
    .filter((row) => row.content.trim())
    .map((row) => ({
      id: row.id,
      role: row.role === 'user' ? ('user' as const) : ('assistant' as const),
      content: row.content,
    }));
  let asked = -1;
  for (let index = turns.length - 2; index >= 0; index -= 1) {
    if (turns[index]?.role === 'user' && turns[index + 1]?.role === 'assistant') {
      asked = index;
      break;
    }
  }
  const question = turns[asked];
  if (!question) {
    throw new AppError('VALIDATION_ERROR', 'This conversation has no answered message to test', { field: 'threadId' });
  }
  const replies: string[] = [];
  for (let index = asked + 1; index < turns.length && turns[index]?.role === 'assistant'; index += 1) {
    replies.push(turns[index]?.content ?? '');
  }
  const reference = clip(replies.join('\n'), REFERENCE_MAX);
  return {
    id: `real-${question.id}`,
    text: clip(question.content, 4000),
    selected: true,
    isEditing: false,
    variations: 0,
    whenToAsk: 1,
    successCriteria: `Answers as well as the recorded reply, which was: "${clip(reference, 600)}"`,
    isSuccessCriteriaEditing: false,
    checks: [{ type: 'similarity', reference, min: 0.5 }],
    replay: {
      history: turns
        .slice(Math.max(0, asked - REPLAY_TURNS_MAX), asked)
        .map(({ role, content }) => ({ role, content: clip(content, REFERENCE_MAX) })),
      reference,
      source,
    },
  };
};

export const addTestCase = async (
  deps: Deps,
  tenant: { subaccountId: string },
  userId: string,
  input: TAddTestCaseRequest,
): Promise<TAddTestCaseResponse> => {
  const thread = await findThread(deps.db, tenant.subaccountId, input.threadId);
  if (!thread) throw new AppError('NOT_FOUND', 'Conversation not found', { field: 'threadId' });
  const rows = await deps.db
    .select({ id: messages.id, role: messages.role, content: messages.content })
    .from(messages)
    .where(eq(messages.threadId, thread.id))
    .orderBy(asc(messages.createdAt), asc(messages.id));
  const testCase = caseFromMessages(rows, `${thread.channel} conversation ${thread.id}`);

  // The template row is locked while its question list changes, so two adds at once both land.
  return deps.db.transaction(async (tx) => {
    const template = input.templateId
      ? await lockedTemplate(tx, tenant.subaccountId, input.templateId)
      : await templateByName(tx, tenant.subaccountId, input.templateName?.trim() || REAL_CONVERSATIONS_TEMPLATE);
    if (!template) {
      if (input.templateId) throw new AppError('NOT_FOUND', 'Template not found', { field: 'templateId' });
      const templateId = newId('template');
      const name = input.templateName?.trim() || REAL_CONVERSATIONS_TEMPLATE;
      await tx.insert(evaluationTemplates).values({
        id: templateId,
        subaccountId: tenant.subaccountId,
        name,
        data: ZTemplateData.parse({ customQuestions: [testCase] }),
        createdBy: userId,
      });
      return { templateId, templateName: name, questionId: testCase.id, added: true };
    }
    const data = ZTemplateData.parse(template.data ?? {});
    const result = { templateId: template.id, templateName: template.name, questionId: testCase.id };
    if (data.customQuestions.some((question) => question.id === testCase.id)) return { ...result, added: false };
    if (data.customQuestions.length >= 500) {
      throw new AppError('VALIDATION_ERROR', 'This template already holds 500 custom questions', {
        field: 'templateId',
      });
    }
    await tx
      .update(evaluationTemplates)
      .set({ data: { ...data, customQuestions: [...data.customQuestions, testCase] } })
      .where(eq(evaluationTemplates.id, template.id));
    return { ...result, added: true };
  });
};

const lockedTemplate = async (tx: Tx, subaccountId: string, templateId: string) => {
  const found = await tx
    .select()
    .from(evaluationTemplates)
    .where(and(eq(evaluationTemplates.id, templateId), eq(evaluationTemplates.subaccountId, subaccountId)))
    .for('update');
  return found[0] ?? null;
};

/**
 * The sub-account's template of that name (the oldest, should there be several), locked; adds
 * without a template go to it rather than making another. The sub-account row is locked first, so
 * two first adds at once make one template.
 */
const templateByName = async (tx: Tx, subaccountId: string, name: string) => {
  await tx.select({ id: subaccounts.id }).from(subaccounts).where(eq(subaccounts.id, subaccountId)).for('update');
  const found = await tx
    .select()
    .from(evaluationTemplates)
    .where(and(eq(evaluationTemplates.subaccountId, subaccountId), eq(evaluationTemplates.name, name)))
    .orderBy(asc(evaluationTemplates.createdAt), asc(evaluationTemplates.id))
    .limit(1)
    .for('update');
  return found[0] ?? null;
};
