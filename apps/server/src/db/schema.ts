/** Every table of the product, gathered from the feature folders that own them. */

export * from '../features/affiliate/schema';
export * from '../features/agents/schema';
export * from '../features/api-keys/schema';
export * from '../features/auth/schema';
export * from '../features/billing/schema';
export * from '../features/channels/schema';
export * from '../features/connections/schema';
export * from '../features/conversations/schema';
export * from '../features/demos/schema';
export * from '../features/evaluation/schema';
export * from '../features/integrations/schema';
export * from '../features/knowledge/schema';
export * from '../features/launch/schema';
export * from '../features/marketplace/schema';
export * from '../features/mcp/schema';
export * from '../features/mentor/schema';
export * from '../features/providers/schema';
export * from '../features/support/schema';
export * from '../features/tenancy/schema';
export * from '../features/webhooks/schema';
export * from '../platform/jobs.schema';
export * from '../platform/mail.schema';
