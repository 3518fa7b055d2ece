import { countAdaptiveAttacks, type TAdaptiveAttackSettings } from './adaptive';
import { CATEGORY_CHECK_KEYS, EVALUATION_MESSAGES, QUESTION_CATEGORIES, type TQuestionCategory } from './constants';
import type { TCheckedItems, TQuestion } from './schemas';

export interface RunValidationInput {
  testingModel: string;
  checkedItems: TCheckedItems;
  customQuestions: TQuestion[];
  complianceQuestions: TQuestion[];
  promptHackingQuestions: TQuestion[];
  /** A run with adaptive attacks needs no question. */
  settings?: { adaptiveAttacks?: Partial<TAdaptiveAttackSettings> };
}

export const questionsOf = (input: RunValidationInput, category: TQuestionCategory): TQuestion[] =>
  category === 'custom'
    ? input.customQuestions
    : category === 'compliance'
      ? input.complianceQuestions
      : input.promptHackingQuestions;

/** Categories that are checked and hold at least one question. */
export const activeCategories = (input: RunValidationInput): TQuestionCategory[] =>
  QUESTION_CATEGORIES.filter(
    (category) => input.checkedItems[CATEGORY_CHECK_KEYS[category]] && questionsOf(input, category).length > 0,
  );

/** Section 5 rules for Run, shared by the screen and the server: the first failing rule, or null. */
export const validateRun = (input: RunValidationInput): { field: string; message: string } | null => {
  if (!input.testingModel.trim()) return { field: 'testing_model', message: EVALUATION_MESSAGES.selectTestingModel };
  const active = activeCategories(input);
  const anySelected = active.some((category) =>
    questionsOf(input, category).some((item) => item.selected && item.text.trim()),
  );
  if ((!active.length || !anySelected) && !countAdaptiveAttacks(input.settings?.adaptiveAttacks))
    return { field: 'checkedItems', message: EVALUATION_MESSAGES.selectCategory };
  return null;
};

/** Conversations a run holds: every selected question of each active category, once per variation plus the original. */
export const countConversations = (input: RunValidationInput): number =>
  activeCategories(input)
    .flatMap((category) => questionsOf(input, category))
    .filter((item) => item.selected && item.text.trim())
    .reduce((sum, item) => sum + item.variations + 1, 0) + countAdaptiveAttacks(input.settings?.adaptiveAttacks);

/** The template name rule: non-blank. */
export const validateTemplateName = (name: string): string | null =>
  name.trim() ? null : EVALUATION_MESSAGES.templateName;
