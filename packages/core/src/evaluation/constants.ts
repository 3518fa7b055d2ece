/** Business constants and limits of evaluation and testing (spec/evaluation.md section 9). */

/** Testing models always offered in the picker; the account's configured providers are added to them. */
export const TESTING_MODELS = ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1', 'gpt-3.5-turbo'] as const;

export const QUESTION_POLL_INTERVAL_MS = 3000;
export const QUESTION_POLL_MAX_ATTEMPTS = 100;

export const GENERATION_COUNT_MIN = 0;
export const GENERATION_COUNT_MAX = 20;
export const CUSTOM_CATEGORY_COUNT_CAP = 50;

export const VARIATIONS_MIN = 0;
export const VARIATIONS_MAX = 10;
export const VARIATIONS_DEFAULT = 3;
export const WHEN_TO_ASK_MIN = 1;
export const WHEN_TO_ASK_MAX = 10;
export const WHEN_TO_ASK_DEFAULT = 1;

/** Turns the simulated user may add after the targeted question (a setting of the run). */
export const FOLLOW_UP_TURNS_MIN = 0;
export const FOLLOW_UP_TURNS_MAX = 5;

/**
 * The hallucination check of the judge (hallucinationChoice): off (null), or the answer must be
 * supported by the agent's instructions and knowledge; hallucinationInstruction adds what else to check.
 */
export const HALLUCINATION_CHOICES = [
  { value: '', label: 'Off' },
  { value: 'knowledge', label: "Against the agent's instructions and knowledge" },
] as const;

export const DEFAULT_INITIAL_MESSAGE = 'How can I help you with solar today?';
export const DEFAULT_USER_DESCRIPTION = 'User wants help looking at options for solar energy.';

/** The external document behind 'Find inspiration here'. */
export const INSPIRATION_URL = 'https://github.com/openai/evals/blob/main/docs/build-eval.md';

export const EVALUATION_TYPES = ['chatcompletion', 'openai-assistants'] as const;
export type TEvaluationType = (typeof EVALUATION_TYPES)[number];

export const QUESTION_CATEGORIES = ['custom', 'compliance', 'promptHacking'] as const;
export type TQuestionCategory = (typeof QUESTION_CATEGORIES)[number];

export const CATEGORY_LABELS: Record<TQuestionCategory, string> = {
  custom: 'Custom Questions',
  compliance: 'Compliance Questions',
  promptHacking: 'Prompt Hacking Questions',
};

/** The CheckedItems key of each category. */
export const CATEGORY_CHECK_KEYS = {
  custom: 'custom-questions',
  compliance: 'compliance',
  promptHacking: 'prompt-hacking',
} as const satisfies Record<TQuestionCategory, string>;

/** Browser storage keys of the test settings screen (spec/evaluation.md section 3). */
export const EVALUATION_STORAGE_KEYS = {
  template: 'evaluation:template',
  testingModel: 'evaluation:tester:testing_model',
  initialMessage: 'evaluation:initialMessage',
  shortuserDescription: 'evaluation:shortuserDescription',
  conversationFlow: 'evaluation:conversationFlow',
  hallucinationInstruction: 'evaluation:hallucinationInstruction',
  hallucinationChoice: 'evaluation:hallucinationChoice',
  checkedItems: 'evaluation:checkedItems',
  settings: 'evaluation:settings',
  customQuestions: 'evaluation:customQuestions',
  complianceQuestions: 'evaluation:complianceQuestions',
  promptHackingQuestions: 'evaluation:promptHackingQuestions',
  chatRunCount: 'evaluation:chatRunCount',
} as const;

export const EVALUATION_MESSAGES = {
  selectTestingModel: 'Please select a testing model',
  selectCategory: 'Please select at least one testing question category with questions',
  templateName: 'Please enter a template name',
  fetchTemplatesFailed: 'Failed to fetch templates',
  saveTemplateFailed: 'Failed to save template',
  templateSaved: 'Template saved successfully',
  loadedTemplate: (label: string) => `Loaded template: ${label}`,
  generationStartFailed: 'Failed to start question generation',
  generationTimedOut: 'Question generation timed out. Please try again.',
  generationFailed: 'Failed to generate questions',
  startFailed: 'Failed to start evaluation',
  questionAdded: (category: TQuestionCategory) => `Question added to ${CATEGORY_LABELS[category]}`,
  questionRejected: 'Question marked as rejected',
  codeCopied: 'Code copied to clipboard!',
  thinking: 'AI is thinking... This may take a moment',
  unsavedTitle: 'Unsaved Changes',
  unsavedText: 'You have unsaved changes. What would you like to do?',
  beforeUnload: 'You have unsaved changes. Are you sure you want to leave?',
} as const;

/** The run status line: "Completed with 3 errors" when some conversations could not be evaluated. */
export const runStatusLabel = (status: string, errors: number): string => {
  const base =
    { queued: 'Queued', running: 'Running', completed: 'Completed', failed: 'Failed', cancelled: 'Cancelled' }[
      status
    ] ?? status;
  if (status !== 'completed' || errors <= 0) return base;
  return `Completed with ${errors} error${errors === 1 ? '' : 's'}`;
};

/** Shown beside the testing model of a run the offline model played a part in. */
export const OFFLINE_RUN_NOTE =
  'Offline model: deterministic answers and a word-overlap check, not a real language model.';

export const OUTCOME_LABELS = { passed: 'Pass', failed: 'Fail', error: 'Error' } as const;
