import type { TEvaluationStartInput, TQuestion } from '@switchboard/core';
import type { Db } from '../db/client';
import { providerKeys } from '../features/providers/schema';
import { newId } from '../platform/ids';

/** Points an account's OpenAI-compatible provider at a local server (tests and the benchmark). */
export const useCompatibleProvider = async (db: Db, accountId: string, baseUrl: string) => {
  await db.insert(providerKeys).values({
    id: newId('apiKey'),
    accountId,
    provider: 'compatible',
    encryptedKey: '',
    keyTail: '',
    baseUrl,
    models: ['stub-model'],
  });
};

export const testQuestion = (id: string, text: string, overrides: Partial<TQuestion> = {}): TQuestion => ({
  id,
  text,
  selected: true,
  isEditing: false,
  variations: 0,
  whenToAsk: 1,
  successCriteria: `Criteria for ${id}`,
  isSuccessCriteriaEditing: false,
  ...overrides,
});

/** A chat-completion start payload testing `compatible:stub-model` with the given questions. */
export const startPayload = (overrides: Partial<TEvaluationStartInput> = {}): TEvaluationStartInput => ({
  evaluationId: newId('evaluation'),
  ai1_config: {
    model: 'compatible:stub-model',
    temperature: 1,
    max_tokens: 256,
    top_p: 1,
    frequency_penalty: 0,
    presence_penalty: 0,
    stop: [],
  },
  initial_message: 'How can I help you with solar today?',
  shortuserDescription: 'User wants help looking at options for solar energy.',
  conversationFlowInput: '',
  hallucinationInstruction: '',
  hallucinationChoice: null,
  customQuestionInstruction: '',
  complianceQuestionInstruction: '',
  promptHackingQuestionInstruction: '',
  subItemValues: {},
  subItemSuccessCriteriaMap: {},
  checkedItems: { 'custom-questions': true, compliance: false, 'prompt-hacking': false },
  settings: { evaluationName: 'Stub run', prompt: 'You are a solar sales assistant.' },
  customQuestions: [],
  complianceQuestions: [],
  promptHackingQuestions: [],
  testing_model_for_test_generation: 'compatible:stub-model',
  ...overrides,
});
