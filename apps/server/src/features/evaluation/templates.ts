import { type TCreateTemplateRequest, type TTemplate, ZTemplateData } from '@switchboard/core';
import { desc, eq } from 'drizzle-orm';
import type { Deps } from '../../platform/deps';
import { newId } from '../../platform/ids';
import { validateQuestionChecks } from './checks';
import { evaluationTemplates } from './schema';

/** Stored data is parsed leniently: older records carry `model`, which also fills `testing_model`. */
const readTemplateData = (data: unknown) => {
  const parsed = ZTemplateData.safeParse(data);
  const value = parsed.success ? parsed.data : ZTemplateData.parse({});
  return { ...value, testing_model: value.testing_model ?? value.model ?? '' };
};

export const listTemplates = async (deps: Deps, subaccountId: string): Promise<TTemplate[]> => {
  const rows = await deps.db
    .select()
    .from(evaluationTemplates)
    .where(eq(evaluationTemplates.subaccountId, subaccountId))
    .orderBy(desc(evaluationTemplates.createdAt))
    .limit(500);
  return rows.map((row) => ({ _id: row.id, templateName: row.name, templateData: readTemplateData(row.data) }));
};

export const findTemplate = async (deps: Deps, subaccountId: string, templateId: string) => {
  const rows = await deps.db.select().from(evaluationTemplates).where(eq(evaluationTemplates.id, templateId)).limit(1);
  const row = rows[0];
  if (!row || row.subaccountId !== subaccountId) return null;
  return { _id: row.id, templateName: row.name, templateData: readTemplateData(row.data) };
};

export const createTemplate = async (
  deps: Deps,
  input: { subaccountId: string; userId: string; request: TCreateTemplateRequest },
) => {
  const data = input.request.templateData;
  validateQuestionChecks({
    customQuestions: data.customQuestions,
    complianceQuestions: data.complianceQuestions,
    promptHackingQuestions: data.promptHackingQuestions,
  });
  const id = newId('template');
  await deps.db.insert(evaluationTemplates).values({
    id,
    subaccountId: input.subaccountId,
    name: input.request.templateName.trim(),
    data: input.request.templateData,
    createdBy: input.userId,
  });
  return id;
};
