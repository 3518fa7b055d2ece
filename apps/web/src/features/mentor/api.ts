import type {
  TCreateMentorReviewRequest,
  TMentorDecisionResponse,
  TMentorReview,
  TMentorReviewListResponse,
} from '@switchboard/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { agentKey } from '../agents/api';

export const latestReviewKey = (subaccountId: string | null, agentId: string) =>
  ['mentor-review', subaccountId, agentId] as const;

/** The agent's most recent review (kept on the server, so a reload shows it again), or null. */
export const useLatestReview = (subaccountId: string | null, agentId: string) =>
  useQuery({
    queryKey: latestReviewKey(subaccountId, agentId),
    queryFn: async () => {
      const list = await api<TMentorReviewListResponse>(
        `/api/mentor/reviews?agentId=${encodeURIComponent(agentId)}&limit=1`,
      );
      return list.reviews[0] ?? null;
    },
    enabled: Boolean(subaccountId && agentId),
  });

/** Review an agent; failures are shown on the page (no toast). */
export const useCreateReview = (subaccountId: string | null) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TCreateMentorReviewRequest) => api<TMentorReview>('/api/mentor/reviews', { body, silent: true }),
    onSuccess: (review) => queryClient.setQueryData(latestReviewKey(subaccountId, review.agentId), review),
  });
};

/** Apply or dismiss one suggestion; an applied one refreshes the agent everywhere. */
export const useDecideSuggestion = (subaccountId: string | null) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({
      reviewId,
      suggestionId,
      action,
    }: {
      reviewId: string;
      suggestionId: string;
      action: 'apply' | 'dismiss';
    }) =>
      api<TMentorDecisionResponse>(
        `/api/mentor/reviews/${encodeURIComponent(reviewId)}/suggestions/${encodeURIComponent(suggestionId)}/${action}`,
        { method: 'POST', silent: true },
      ),
    onSuccess: ({ review, suggestion }) => {
      queryClient.setQueryData(latestReviewKey(subaccountId, review.agentId), review);
      if (suggestion.status === 'applied') {
        void queryClient.invalidateQueries({ queryKey: agentKey(review.agentId) });
        void queryClient.invalidateQueries({ queryKey: ['agents'] });
      }
    },
  });
};
