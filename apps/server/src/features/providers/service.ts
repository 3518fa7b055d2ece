import {
  PROVIDER_LABELS,
  type TKeyedProviderId,
  type TProviderKeyView,
  type TSaveProviderKeyRequest,
  ZSaveProviderKeyRequest,
} from '@switchboard/core';
import { and, eq } from 'drizzle-orm';
import { encryptSecret, maskTail } from '../../platform/crypto';
import type { Deps } from '../../platform/deps';
import { publish } from '../../platform/domain-events';
import { AppError } from '../../platform/errors';
import { newId } from '../../platform/ids';
import { policyOf, vetUrlResolved } from '../../platform/outbound';
import { fetchProviderModels } from './models-list';
import { listProviderKeys } from './repo';
import { providerKeys } from './schema';

const ORDER: TKeyedProviderId[] = ['openai', 'openrouter', 'anthropic', 'compatible'];

export const listProviders = async (deps: Deps, accountId: string): Promise<TProviderKeyView[]> => {
  const rows = await listProviderKeys(deps.db, accountId);
  return ORDER.map((provider) => {
    const row = rows.find((candidate) => candidate.provider === provider);
    return {
      provider,
      label: PROVIDER_LABELS[provider],
      configured: Boolean(row),
      keyTail: row?.keyTail || null,
      baseUrl: row?.baseUrl ?? null,
      models: row?.models ?? [],
      updatedAt: row?.updatedAt.toISOString() ?? null,
    };
  });
};

/** Tests the key with the provider's model list, then stores it encrypted with the models. */
export const saveProviderKey = async (
  deps: Deps,
  accountId: string,
  provider: TKeyedProviderId,
  body: TSaveProviderKeyRequest,
): Promise<TProviderKeyView> => {
  const input = ZSaveProviderKeyRequest.parse(body);
  const baseUrl = input.baseUrl ?? null;
  if (provider === 'compatible' && !baseUrl) {
    throw new AppError('VALIDATION_ERROR', 'Enter the base URL of the OpenAI-compatible server', { field: 'baseUrl' });
  }
  if (provider !== 'compatible' && !input.apiKey) {
    throw new AppError('VALIDATION_ERROR', 'Enter the API key', { field: 'apiKey' });
  }
  if (baseUrl) await vetUrlResolved(baseUrl, policyOf(deps.env), { field: 'baseUrl' });
  const models = await fetchProviderModels(deps, provider, { apiKey: input.apiKey, baseUrl });
  const values = {
    encryptedKey: input.apiKey ? encryptSecret(deps.env, input.apiKey) : '',
    keyTail: input.apiKey ? maskTail(input.apiKey) : '',
    baseUrl,
    models,
    updatedAt: new Date(),
  };
  await deps.db
    .insert(providerKeys)
    .values({ id: newId('providerKey'), accountId, provider, ...values })
    .onConflictDoUpdate({ target: [providerKeys.accountId, providerKeys.provider], set: values });
  await publish(deps, 'provider_key.changed', { accountId });
  const views = await listProviders(deps, accountId);
  const view = views.find((item) => item.provider === provider);
  if (!view) throw new AppError('API_KEY_CONFIG_ERROR', 'The API key is not configured correctly.');
  return view;
};

export const deleteProviderKey = async (deps: Deps, accountId: string, provider: TKeyedProviderId) => {
  await deps.db
    .delete(providerKeys)
    .where(and(eq(providerKeys.accountId, accountId), eq(providerKeys.provider, provider)));
  await publish(deps, 'provider_key.changed', { accountId });
};
