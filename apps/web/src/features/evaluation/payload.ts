import type { TEvaluationStartInput, TEvaluationType, TTemplate, TTemplateData } from '@switchboard/core';
import type { TestSettingsValues } from './use-test-settings';

const newEvaluationId = () =>
  typeof crypto !== 'undefined' && 'randomUUID' in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

const clean = <T extends { isEditing: boolean; isSuccessCriteriaEditing: boolean }>(list: T[]) =>
  list.map((item) => ({ ...item, isEditing: false, isSuccessCriteriaEditing: false }));

/** The evaluation start payload of section 3, from the screen's values. */
export const buildStartPayload = (type: TEvaluationType, values: TestSettingsValues): TEvaluationStartInput => {
  const { settings } = values;
  return {
    evaluationId: newEvaluationId(),
    ai1_config:
      type === 'openai-assistants'
        ? {}
        : {
            model: settings.model,
            temperature: settings.temperature,
            max_tokens: settings.maxTokens,
            top_p: settings.topP,
            frequency_penalty: settings.frequencyPenalty,
            presence_penalty: settings.presencePenalty,
            stop: settings.stopSequences,
          },
    ...(type === 'openai-assistants' || settings.assistant_id ? { assistant_id: settings.assistant_id } : {}),
    initial_message: values.initialMessage,
    shortuserDescription: values.shortuserDescription,
    conversationFlowInput: values.conversationFlow,
    hallucinationInstruction: values.hallucinationInstruction,
    hallucinationChoice: values.hallucinationChoice,
    customQuestionInstruction: '',
    complianceQuestionInstruction: '',
    promptHackingQuestionInstruction: '',
    subItemValues: {},
    subItemSuccessCriteriaMap: {},
    checkedItems: values.checkedItems,
    settings: { ...settings, testing_model: values.testingModel },
    customQuestions: clean(values.custom),
    complianceQuestions: clean(values.compliance),
    promptHackingQuestions: clean(values.promptHacking),
    testing_model_for_test_generation: values.testingModel,
    templateId: values.template && values.template !== 'create' ? values.template : null,
  };
};

/** Template data of section 3 from the screen's values. */
export const buildTemplateData = (values: TestSettingsValues): TTemplateData => ({
  testing_model: values.testingModel,
  initialMessage: values.initialMessage,
  shortuserDescription: values.shortuserDescription,
  conversationFlowInput: values.conversationFlow,
  hallucinationInstruction: values.hallucinationInstruction,
  hallucinationChoice: values.hallucinationChoice,
  customQuestions: clean(values.custom),
  complianceQuestions: clean(values.compliance),
  promptHackingQuestions: clean(values.promptHacking),
  settings: values.settings,
});

/** The screen's values after loading a template (older records carry `model`). */
export const valuesFromTemplate = (template: TTemplate): Partial<TestSettingsValues> => {
  const data = template.templateData;
  return {
    template: template._id,
    testingModel: data.testing_model || data.model || '',
    initialMessage: data.initialMessage,
    shortuserDescription: data.shortuserDescription,
    conversationFlow: data.conversationFlowInput,
    hallucinationInstruction: data.hallucinationInstruction,
    hallucinationChoice: data.hallucinationChoice,
    custom: data.customQuestions,
    compliance: data.complianceQuestions,
    promptHacking: data.promptHackingQuestions,
    checkedItems: {
      'custom-questions': data.customQuestions.length > 0,
      compliance: data.complianceQuestions.length > 0,
      'prompt-hacking': data.promptHackingQuestions.length > 0,
    },
  };
};
