import type {
  TCreateProjectRequest,
  TCreateProjectResponse,
  TProject,
  TProjectListResponse,
  TUpdateProjectRequest,
  TUserProfileRequest,
} from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';

export const MARKETPLACE_KEY = ['marketplace'] as const;

export interface BrowseFilter {
  q: string;
  category: string;
  type: string;
  priceType: string;
  budget: string;
  timeframe: string;
  mine: boolean;
  page: number;
}

/** Budget bands of the browse filter, as min/max query values. */
export const BUDGET_BANDS: { value: string; label: string; min?: number; max?: number }[] = [
  { value: '', label: 'Any budget' },
  { value: 'lt500', label: 'Under $500', max: 499 },
  { value: '500-1000', label: '$500 to $1,000', min: 500, max: 1000 },
  { value: '1000-2500', label: '$1,000 to $2,500', min: 1000, max: 2500 },
  { value: 'gt2500', label: 'Over $2,500', min: 2501 },
];

export const PAGE_SIZE = 12;

const queryOf = (filter: BrowseFilter) => {
  const params = new URLSearchParams({ page: String(filter.page), limit: String(PAGE_SIZE) });
  if (filter.q.trim()) params.set('q', filter.q.trim());
  if (filter.category) params.set('category', filter.category);
  if (filter.type) params.set('type', filter.type);
  if (filter.priceType) params.set('priceType', filter.priceType);
  if (filter.timeframe) params.set('timeframe', filter.timeframe);
  if (filter.mine) params.set('mine', 'true');
  const band = BUDGET_BANDS.find((item) => item.value === filter.budget);
  if (band?.min !== undefined) params.set('minBudget', String(band.min));
  if (band?.max !== undefined) params.set('maxBudget', String(band.max));
  return params.toString();
};

export const useProjects = (filter: BrowseFilter, enabled: boolean) =>
  useQuery({
    queryKey: [...MARKETPLACE_KEY, 'list', filter],
    queryFn: () => api<TProjectListResponse>(`/api/marketplace/projects?${queryOf(filter)}`),
    enabled,
    placeholderData: (previous) => previous,
  });

export const useProject = (projectId: string | undefined) =>
  useQuery({
    queryKey: [...MARKETPLACE_KEY, 'project', projectId],
    queryFn: () => api<TProject>(`/api/marketplace/projects/${encodeURIComponent(projectId ?? '')}`, { silent: true }),
    enabled: Boolean(projectId),
    retry: false,
  });

/** The pictures shipped with the product; failures are shown by the wizard's own texts. */
export const usePictures = (path: '/api/marketplace/marketplace-images' | '/api/avatars', enabled: boolean) =>
  useQuery({
    queryKey: [...MARKETPLACE_KEY, 'pictures', path],
    queryFn: () => api<string[]>(path, { silent: true }),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

export const createProject = (body: TCreateProjectRequest) =>
  api<TCreateProjectResponse>('/api/marketplace/projects', { body, silent: true });

export const saveProfile = (body: TUserProfileRequest) => api('/api/userprofile', { body, silent: true });

export const useProjectMutations = () => {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: MARKETPLACE_KEY });
  return {
    update: useMutation({
      mutationFn: ({ id, body }: { id: string; body: TUpdateProjectRequest }) =>
        api<TProject>(`/api/marketplace/projects/${encodeURIComponent(id)}`, { method: 'PATCH', body }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: (id: string) => api(`/api/marketplace/projects/${encodeURIComponent(id)}`, { method: 'DELETE' }),
      onSuccess: refresh,
    }),
    respond: useMutation({
      mutationFn: ({ id, message }: { id: string; message: string }) =>
        api<{ sent: true }>(`/api/marketplace/projects/${encodeURIComponent(id)}/respond`, { body: { message } }),
      onSuccess: refresh,
    }),
  };
};
