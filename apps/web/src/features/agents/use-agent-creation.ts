import type { TAgent } from '@switchboard/core';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, api } from '../../lib/api';
import { agentKey, fetchJob, startBuild } from './api';

/**
 * Agent creation from an idea (spec/workspace-widget-demos.md 4): idle, then requesting (the
 * builder job runs; polled every 750 ms, 120 s time-out), then hydrating (holds the pending build
 * id while the new agent loads), then ready. An error belongs to the current creation only, and a
 * creation id already started is never started again.
 */
export type CreationPhase = 'idle' | 'requesting' | 'hydrating' | 'ready' | 'error';

export const POLL_INTERVAL_MS = 750;
export const POLL_TIMEOUT_MS = 120_000;

export const BUILDER_ERRORS = {
  notFound: 'Builder job not found',
  status: 'Failed to fetch builder job status',
  empty: 'Builder job returned empty result',
  failed: 'Builder job failed',
  timeout: 'Builder job timed out',
  request: 'Builder request failed',
} as const;

class BuilderError extends Error {
  constructor(
    message: string,
    /** The API's error code, when the refusal came with one (a plan limit: BILLING_ACTIVE_SUBSCRIPTION_REQUIRED). */
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new DOMException('Aborted', 'AbortError'));
    });
  });

/** Polls the builder job until it succeeds (its result), fails, disappears or times out. */
export const pollBuilderJob = async (jobId: string, signal: AbortSignal, now = () => Date.now()) => {
  const started = now();
  for (;;) {
    let job: Awaited<ReturnType<typeof fetchJob>>;
    try {
      job = await fetchJob(jobId, signal);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) throw new BuilderError(BUILDER_ERRORS.notFound);
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new BuilderError(BUILDER_ERRORS.status);
    }
    if (job.status === 'succeeded') {
      if (!job.result) throw new BuilderError(BUILDER_ERRORS.empty);
      return job.result;
    }
    if (job.status === 'failed') throw new BuilderError(job.error || BUILDER_ERRORS.failed);
    if (now() - started >= POLL_TIMEOUT_MS) throw new BuilderError(BUILDER_ERRORS.timeout);
    await sleep(POLL_INTERVAL_MS, signal);
  }
};

/** How the builder made the draft: the chosen model, the offline model, or the offline writer after an unusable answer. */
export type DraftSource = 'model' | 'offline' | 'offline-fallback';

export const useAgentCreation = (onReady: (agent: TAgent, draftSource: DraftSource) => void) => {
  const queryClient = useQueryClient();
  const [phase, setPhase] = useState<CreationPhase>('idle');
  const [error, setError] = useState<string | null>(null);
  const [errorCode, setErrorCode] = useState<string | null>(null);
  const [pendingBuildId, setPendingBuildId] = useState<string | null>(null);
  const created = useRef(new Set<string>());
  const current = useRef<string | null>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => () => abort.current?.abort(), []);

  const create = useCallback(
    async (creationId: string, idea: string, choice?: { provider: string; model: string }) => {
      if (typeof creationId !== 'string' || !creationId || created.current.has(creationId)) return;
      created.current.add(creationId);
      current.current = creationId;
      abort.current?.abort();
      const controller = new AbortController();
      abort.current = controller;
      const isCurrent = () => current.current === creationId && !controller.signal.aborted;
      setError(null);
      setErrorCode(null);
      setPendingBuildId(null);
      setPhase('requesting');
      try {
        let result: { status: string; data: unknown };
        try {
          const started = await startBuild(idea, choice);
          if (!started.jobId) throw new BuilderError(BUILDER_ERRORS.request);
          result = await pollBuilderJob(started.jobId, controller.signal);
        } catch (thrown) {
          if (thrown instanceof ApiError) {
            throw new BuilderError(thrown.message || BUILDER_ERRORS.request, thrown.code ?? null);
          }
          throw thrown;
        }
        const data = result.data as { agentId?: string; draftSource?: DraftSource } | null;
        const agentId = data?.agentId;
        if (!agentId) throw new BuilderError(BUILDER_ERRORS.empty);
        if (!isCurrent()) return;
        setPendingBuildId(agentId);
        setPhase('hydrating');
        const agent = await api<TAgent>(`/api/agents/${agentId}`, { silent: true, signal: controller.signal });
        queryClient.setQueryData(agentKey(agent.id), agent);
        void queryClient.invalidateQueries({ queryKey: ['agents'] });
        if (!isCurrent()) return;
        setPhase('ready');
        onReady(agent, data?.draftSource ?? 'model');
      } catch (thrown) {
        if (thrown instanceof DOMException && thrown.name === 'AbortError') return;
        if (!isCurrent()) return;
        setError(thrown instanceof BuilderError ? thrown.message : BUILDER_ERRORS.request);
        setErrorCode(thrown instanceof BuilderError ? thrown.code : null);
        setPhase('error');
      }
    },
    [onReady, queryClient],
  );

  const creating = phase === 'requesting' || phase === 'hydrating';
  return { phase, error, errorCode, pendingBuildId, creating, create };
};
