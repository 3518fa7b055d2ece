import { TESTING_MODELS } from '@switchboard/core';
import type { Deps } from '../../platform/deps';
import { listModelChoices, type ModelChoice, type ProviderId } from '../llm/gateway';

const PROVIDERS: ProviderId[] = ['offline', 'openai', 'openrouter', 'anthropic', 'compatible'];

/**
 * A model as the screens send it: `gpt-4o` (the built-in list, run through OpenAI) or
 * `<provider>:<model>` for a provider configured on the account (`compatible:llama3:8b`).
 */
export const parseModelChoice = (value: string): ModelChoice => {
  if (value === 'offline') return { provider: 'offline', model: 'offline' };
  const colon = value.indexOf(':');
  if (colon > 0) {
    const provider = value.slice(0, colon) as ProviderId;
    if (PROVIDERS.includes(provider)) return { provider, model: value.slice(colon + 1) };
  }
  return { provider: 'openai', model: value };
};

export const formatModelChoice = (choice: ModelChoice): string => `${choice.provider}:${choice.model}`;

/** The testing models offered: the section 9 list, then the account's configured models. */
export const listTestingModels = async (deps: Deps, accountId: string) => {
  const builtIn = TESTING_MODELS.map((model) => ({ value: model, label: model }));
  const configured = await listModelChoices(deps, accountId);
  const seen = new Set<string>(builtIn.map((item) => item.value));
  const extra = [];
  for (const choice of configured) {
    const value = choice.provider === 'openai' && seen.has(choice.model) ? choice.model : formatModelChoice(choice);
    if (seen.has(value)) continue;
    seen.add(value);
    extra.push({ value, label: choice.label });
  }
  return [...builtIn, ...extra];
};
