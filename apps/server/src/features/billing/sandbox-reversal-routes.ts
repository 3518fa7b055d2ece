/**
 * The sandbox's refunds and disputes, for the platform's operators (OPERATOR_EMAILS): refund
 * (in part or in full) or dispute a paid sandbox invoice, and close a dispute as won or lost. Each
 * changes the sandbox's record, then drives the event Stripe would send through the same handler
 * as the webhook. Only where the sandbox is the payment provider; every answer says `sandbox: true`.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../platform/errors';
import { operatorOnly } from '../../platform/guard';
import { originOf } from '../../platform/http';
import { providerFor } from './account';
import { SandboxProvider } from './sandbox-provider';
import { closeSandboxDispute, disputeSandboxInvoice, refundSandboxInvoice, sandboxPayment } from './sandbox-reversals';
import { handleProviderEvent } from './sync';

const tags = ['operator'];
const ZInvoiceId = z.string().trim().min(1).max(80);
const ZOutcome = z.enum(['processed', 'duplicate', 'ignored']);

const invoiceNotFound = () => new AppError('NOT_FOUND', 'No paid sandbox invoice with this id');

export const sandboxReversalRoutes: FastifyPluginAsyncZod = async (app) => {
  const { deps } = app;

  const sandbox = (origin: string) => {
    const provider = providerFor(deps, origin);
    if (!(provider instanceof SandboxProvider)) throw new AppError('NOT_FOUND', 'Not found');
    return provider;
  };
  const deliver = (provider: SandboxProvider, type: string, objectId: string, objectType: string) =>
    handleProviderEvent(deps, provider, {
      id: `evt_sbx_${randomBytes(8).toString('hex')}`,
      type,
      created: Math.floor(Date.now() / 1000),
      objectId,
      objectType,
    });

  app.post(
    '/api/operator/sandbox/refunds',
    {
      config: operatorOnly(),
      schema: {
        tags,
        // amount: minor units; the rest of the payment when absent.
        body: z.object({ invoiceId: ZInvoiceId, amount: z.number().int().min(1).max(100_000_000).optional() }),
        response: {
          200: z.object({
            sandbox: z.literal(true),
            invoiceId: z.string(),
            amountRefunded: z.number(),
            outcome: ZOutcome,
          }),
        },
      },
    },
    async (request) => {
      const provider = sandbox(originOf(request, deps.env));
      const { invoiceId } = request.body;
      const refunded = await refundSandboxInvoice(deps.db, invoiceId, request.body.amount ?? null);
      if (refunded === null) throw invoiceNotFound();
      const outcome = await deliver(provider, 'charge.refunded', invoiceId, 'charge');
      return { sandbox: true as const, invoiceId, amountRefunded: refunded, outcome };
    },
  );

  const ZDisputeAnswer = z.object({
    sandbox: z.literal(true),
    disputeId: z.string(),
    amount: z.number(),
    status: z.string(),
    outcome: ZOutcome,
  });

  app.post(
    '/api/operator/sandbox/disputes',
    {
      config: operatorOnly(),
      schema: { tags, body: z.object({ invoiceId: ZInvoiceId }), response: { 200: ZDisputeAnswer } },
    },
    async (request) => {
      const provider = sandbox(originOf(request, deps.env));
      const { invoiceId } = request.body;
      if (!(await sandboxPayment(deps.db, invoiceId))) throw invoiceNotFound();
      const dispute = await disputeSandboxInvoice(deps.db, invoiceId);
      if (!dispute) throw invoiceNotFound();
      const outcome = await deliver(provider, 'charge.dispute.created', dispute.id, 'dispute');
      return { sandbox: true as const, disputeId: dispute.id, amount: dispute.amount, status: dispute.status, outcome };
    },
  );

  app.post(
    '/api/operator/sandbox/disputes/close',
    {
      config: operatorOnly(),
      schema: {
        tags,
        body: z.object({ disputeId: z.string().trim().min(1).max(90), status: z.enum(['won', 'lost']) }),
        response: { 200: ZDisputeAnswer },
      },
    },
    async (request) => {
      const provider = sandbox(originOf(request, deps.env));
      const dispute = await closeSandboxDispute(deps.db, request.body.disputeId, request.body.status);
      if (!dispute) throw new AppError('NOT_FOUND', 'No sandbox dispute with this id');
      if (dispute.status === 'needs_response') {
        throw new AppError('CONFLICT', 'This dispute could not be closed.', { reason: 'dispute_open' });
      }
      if (dispute.status !== request.body.status) {
        throw new AppError('CONFLICT', `This dispute is already closed as ${dispute.status}.`, {
          reason: 'dispute_closed',
        });
      }
      const outcome = await deliver(provider, 'charge.dispute.closed', dispute.id, 'dispute');
      return { sandbox: true as const, disputeId: dispute.id, amount: dispute.amount, status: dispute.status, outcome };
    },
  );
};
