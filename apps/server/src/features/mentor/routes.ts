import {
  ZCreateMentorReviewRequest,
  ZMentorDecisionResponse,
  ZMentorReview,
  ZMentorReviewListQuery,
  ZMentorReviewListResponse,
} from '@switchboard/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import {
  callerOf,
  fromCurrentSubaccount,
  type SubaccountResolver,
  subaccountAccess,
  tenantOf,
} from '../../platform/guard';
import * as service from './service';

const tags = ['mentor'];
const ZReviewParams = z.object({ reviewId: z.string().max(64) });
const ZSuggestionParams = ZReviewParams.extend({ suggestionId: z.string().max(64) });

/** The sub-account a review belongs to (unknown ids answer 404 through the guard). */
const fromReviewParam = (): SubaccountResolver => async (request, deps) => {
  const id = (request.params as { reviewId?: string }).reviewId ?? '';
  const subaccountId = await service.reviewSubaccount(deps.db, id);
  if (!subaccountId) throw new AppError('NOT_FOUND', 'The review does not exist or was deleted.');
  return subaccountId;
};

export const mentorRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  app.post(
    '/api/mentor/reviews',
    {
      config: {
        ...subaccountAccess('member', fromCurrentSubaccount()),
        rateLimit: { max: 20, timeWindow: '1 minute' },
      },
      schema: { tags, body: ZCreateMentorReviewRequest, response: { 201: ZMentorReview } },
    },
    async (request, reply) => {
      const caller = callerOf(request);
      const review = await service.createReview(deps, tenantOf(request), caller.userId, request.body);
      return reply.status(201).send(review);
    },
  );

  app.get(
    '/api/mentor/reviews',
    {
      config: subaccountAccess('viewer', fromCurrentSubaccount()),
      schema: { tags, querystring: ZMentorReviewListQuery, response: { 200: ZMentorReviewListResponse } },
    },
    async (request) => service.listReviews(deps.db, tenantOf(request), request.query),
  );

  app.get(
    '/api/mentor/reviews/:reviewId',
    {
      config: subaccountAccess('viewer', fromReviewParam()),
      schema: { tags, params: ZReviewParams, response: { 200: ZMentorReview } },
    },
    async (request) => service.getReview(deps.db, tenantOf(request), request.params.reviewId),
  );

  app.post(
    '/api/mentor/reviews/:reviewId/suggestions/:suggestionId/apply',
    {
      config: subaccountAccess('member', fromReviewParam()),
      schema: { tags, params: ZSuggestionParams, response: { 200: ZMentorDecisionResponse } },
    },
    async (request) =>
      service.applySuggestion(deps, tenantOf(request), request.params.reviewId, request.params.suggestionId),
  );

  app.post(
    '/api/mentor/reviews/:reviewId/suggestions/:suggestionId/dismiss',
    {
      config: subaccountAccess('member', fromReviewParam()),
      schema: { tags, params: ZSuggestionParams, response: { 200: ZMentorDecisionResponse } },
    },
    async (request) =>
      service.dismissSuggestion(deps, tenantOf(request), request.params.reviewId, request.params.suggestionId),
  );
};
