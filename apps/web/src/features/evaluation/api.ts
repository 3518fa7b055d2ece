import type {
  TAgentListResponse,
  TEvaluationRun,
  TEvaluationStartInput,
  TOwaspReport,
  TQuestionGeneratorRequest,
  TQuestionGeneratorStatus,
  TRunComparison,
  TRunResults,
  TRunsResponse,
  TStartRunResponse,
  TTemplateData,
  TTemplatesResponse,
} from '@switchboard/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { useSession } from '../session/session';

/** Queries are keyed by the sub-account they act in (sent as X-Subaccount-Id). */
const useSubaccountKey = () => useSession().currentSubaccount?.id ?? 'none';

export const useTemplates = () => {
  const sub = useSubaccountKey();
  return useQuery({
    queryKey: ['evaluation', 'templates', sub],
    queryFn: () => api<TTemplatesResponse>('/api/templates', { silent: true }),
    enabled: sub !== 'none',
  });
};

export const useTestingModels = () => {
  const sub = useSubaccountKey();
  return useQuery({
    queryKey: ['evaluation', 'models', sub],
    queryFn: () => api<{ models: { value: string; label: string }[] }>('/api/evaluation/models'),
    enabled: sub !== 'none',
    staleTime: 60_000,
  });
};

export const useAgents = () => {
  const sub = useSubaccountKey();
  return useQuery({
    queryKey: ['evaluation', 'agents', sub],
    queryFn: () => api<TAgentListResponse>('/api/agents?limit=100'),
    enabled: sub !== 'none',
  });
};

export const useRuns = (filter: { agentId?: string; page?: number } = {}) => {
  const sub = useSubaccountKey();
  const params = new URLSearchParams({ limit: '25', page: String(filter.page ?? 1) });
  if (filter.agentId) params.set('agentId', filter.agentId);
  return useQuery({
    queryKey: ['evaluation', 'runs', sub, params.toString()],
    queryFn: () => api<TRunsResponse>(`/api/evaluation/runs?${params}`),
    enabled: sub !== 'none',
  });
};

export const useRunResults = (
  runId: string | null,
  refetchInterval?: number | false | ((query: { state: { data?: TRunResults } }) => number | false),
) =>
  useQuery({
    queryKey: ['evaluation', 'results', runId],
    queryFn: () => api<TRunResults>(`/api/evaluation/runs/${runId}/results`),
    enabled: Boolean(runId),
    refetchInterval,
  });

export const useOwaspReport = (runId: string | null) =>
  useQuery({
    queryKey: ['evaluation', 'owasp', runId],
    queryFn: () => api<TOwaspReport>(`/api/evaluation/runs/${runId}/owasp`),
    enabled: Boolean(runId),
  });

export const useComparison = (base: string | null, other: string | null) =>
  useQuery({
    queryKey: ['evaluation', 'compare', base, other],
    queryFn: () => api<TRunComparison>(`/api/evaluation/compare?base=${base}&other=${other}`),
    enabled: Boolean(base && other),
  });

export const saveTemplate = (templateName: string, templateData: TTemplateData) =>
  api<{ templateId: string }>('/api/templates', { body: { templateName, templateData }, silent: true });

export const startQuestionGeneration = (request: TQuestionGeneratorRequest) =>
  api<{ data?: { generatequestionsId?: string } }>('/api/questiongenerator', { body: request, silent: true });

export const pollQuestionGeneration = (id: string) =>
  api<TQuestionGeneratorStatus>(`/api/questiongenerator/${id}`, { silent: true });

export const startEvaluation = (type: 'chatcompletion' | 'openai-assistants', payload: TEvaluationStartInput) =>
  api<TStartRunResponse>(
    type === 'openai-assistants' ? '/api/openai/assistants/run/evaluationdata' : '/api/evaluation/run/evaluationdata',
    { body: payload, silent: true },
  );

export const cancelEvaluation = (runId: string) =>
  api<TEvaluationRun>(`/api/evaluation/runs/${runId}/cancel`, { method: 'POST', body: {} });

export const shareRun = (runId: string) =>
  api<{ token: string; path: string }>(`/api/evaluation/runs/${runId}/share`, { method: 'POST', body: {} });

export const unshareRun = (runId: string) => api<void>(`/api/evaluation/runs/${runId}/share`, { method: 'DELETE' });
