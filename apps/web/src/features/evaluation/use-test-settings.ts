import {
  DEFAULT_CHECKED_ITEMS,
  DEFAULT_COMPLIANCE_QUESTIONS,
  DEFAULT_CUSTOM_QUESTIONS,
  DEFAULT_EVALUATION_SETTINGS,
  DEFAULT_INITIAL_MESSAGE,
  DEFAULT_PROMPT_HACKING_QUESTIONS,
  DEFAULT_USER_DESCRIPTION,
  EVALUATION_STORAGE_KEYS as KEYS,
  type TCheckedItems,
  type TEvaluationSettings,
  type TQuestion,
  type TQuestionCategory,
} from '@switchboard/core';
import { useCallback, useState } from 'react';
import { storage } from '../../lib/storage';

export const LIST_KEYS: Record<TQuestionCategory, keyof typeof KEYS> = {
  custom: 'customQuestions',
  compliance: 'complianceQuestions',
  promptHacking: 'promptHackingQuestions',
};

export interface TestSettingsValues {
  template: string;
  testingModel: string;
  initialMessage: string;
  shortuserDescription: string;
  conversationFlow: string;
  hallucinationInstruction: string;
  hallucinationChoice: string | null;
  checkedItems: TCheckedItems;
  settings: TEvaluationSettings;
  custom: TQuestion[];
  compliance: TQuestion[];
  promptHacking: TQuestion[];
}

const STORAGE_OF: Record<keyof TestSettingsValues, string> = {
  template: KEYS.template,
  testingModel: KEYS.testingModel,
  initialMessage: KEYS.initialMessage,
  shortuserDescription: KEYS.shortuserDescription,
  conversationFlow: KEYS.conversationFlow,
  hallucinationInstruction: KEYS.hallucinationInstruction,
  hallucinationChoice: KEYS.hallucinationChoice,
  checkedItems: KEYS.checkedItems,
  settings: KEYS.settings,
  custom: KEYS.customQuestions,
  compliance: KEYS.complianceQuestions,
  promptHacking: KEYS.promptHackingQuestions,
};

/** The values the screen starts with: browser storage, else the spec defaults. */
export const readStoredValues = (): TestSettingsValues => {
  const settings = { ...DEFAULT_EVALUATION_SETTINGS, ...storage.get<Partial<TEvaluationSettings>>(KEYS.settings, {}) };
  return {
    template: storage.get(KEYS.template, ''),
    testingModel: storage.get(KEYS.testingModel, settings.testing_model || ''),
    initialMessage: storage.get(KEYS.initialMessage, DEFAULT_INITIAL_MESSAGE),
    shortuserDescription: storage.get(KEYS.shortuserDescription, DEFAULT_USER_DESCRIPTION),
    conversationFlow: storage.get(KEYS.conversationFlow, ''),
    hallucinationInstruction: storage.get(KEYS.hallucinationInstruction, ''),
    hallucinationChoice: storage.get<string | null>(KEYS.hallucinationChoice, null),
    checkedItems: { ...DEFAULT_CHECKED_ITEMS, ...storage.get<Partial<TCheckedItems>>(KEYS.checkedItems, {}) },
    settings,
    custom: storage.get(KEYS.customQuestions, DEFAULT_CUSTOM_QUESTIONS),
    compliance: storage.get(KEYS.complianceQuestions, DEFAULT_COMPLIANCE_QUESTIONS),
    promptHacking: storage.get(KEYS.promptHackingQuestions, DEFAULT_PROMPT_HACKING_QUESTIONS),
  };
};

/** Clears the screen's storage after a started run, keeping the run counter. */
export const clearStoredValues = () => {
  for (const [name, key] of Object.entries(KEYS)) {
    if (name !== 'chatRunCount') storage.remove(key);
  }
};

let questionCounter = 0;
export const newQuestion = (overrides: Partial<TQuestion> = {}): TQuestion => {
  questionCounter += 1;
  return {
    id: `q-${Date.now().toString(36)}-${questionCounter}`,
    text: '',
    selected: true,
    isEditing: true,
    variations: 3,
    whenToAsk: 1,
    successCriteria: '',
    isSuccessCriteriaEditing: true,
    ...overrides,
  };
};

/** Form state of the test settings screen; every change is persisted under its evaluation:* key. */
export const useTestSettings = () => {
  const [values, setValues] = useState<TestSettingsValues>(readStoredValues);
  const [dirty, setDirty] = useState(false);

  const set = useCallback(<K extends keyof TestSettingsValues>(key: K, value: TestSettingsValues[K]) => {
    if (!storage.set(STORAGE_OF[key], value)) return;
    setValues((previous) => ({ ...previous, [key]: value }));
    setDirty(true);
  }, []);

  const setMany = useCallback((patch: Partial<TestSettingsValues>) => {
    for (const [key, value] of Object.entries(patch)) {
      if (!storage.set(STORAGE_OF[key as keyof TestSettingsValues], value)) return;
    }
    setValues((previous) => ({ ...previous, ...patch }));
    setDirty(true);
  }, []);

  const updateList = useCallback((category: TQuestionCategory, update: (list: TQuestion[]) => TQuestion[]) => {
    setValues((previous) => {
      const next = update(previous[category]);
      if (!storage.set(STORAGE_OF[category], next)) return previous;
      return { ...previous, [category]: next };
    });
    setDirty(true);
  }, []);

  return { values, set, setMany, updateList, dirty, setDirty };
};
