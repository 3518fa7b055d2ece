import {
  EVALUATION_MESSAGES,
  QUESTION_POLL_INTERVAL_MS,
  QUESTION_POLL_MAX_ATTEMPTS,
  type TCustomPrompt,
} from '@switchboard/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../lib/api';
import { toast } from '../../lib/toast';
import { showErrorDialog } from '../errors/error-dialog';
import { pollQuestionGeneration, startQuestionGeneration } from './api';
import type { GeneratedResults, GenerationCounts, RedTeamSelection } from './generate-dialogs';

const wait = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new DOMException('Aborted', 'AbortError'));
    });
  });

/**
 * The AI question generation flow: start, poll every 3 s for at most 100 attempts, then review.
 * Existing results are reopened instead of generating again.
 */
export const useQuestionGeneration = (input: { testingModel: string; prompt: string; assistantId?: string }) => {
  const [generateOpen, setGenerateOpen] = useState(false);
  const [reviewOpen, setReviewOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [results, setResults] = useState<GeneratedResults | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  /** The 'Generate Questions with AI' button. */
  const open = useCallback(() => {
    if (results && Object.keys(results).length) setReviewOpen(true);
    else setGenerateOpen(true);
  }, [results]);

  const generate = useCallback(
    async (counts: GenerationCounts, customPrompts: TCustomPrompt[], redTeam?: RedTeamSelection) => {
      abort.current?.abort();
      const controller = new AbortController();
      abort.current = controller;
      setBusy(true);
      try {
        const started = await startQuestionGeneration({
          evaluation_type: 'questiongenerator',
          generatedIndustryCount: counts.industry,
          generatedAngryCount: counts.angry,
          generatedComplianceCount: counts.compliance,
          generatedPromptHackingCount: counts.promptHacking,
          customPrompts: customPrompts.filter((item) => item.label.trim()),
          prompt: input.prompt,
          testing_model: input.testingModel || undefined,
          ...(input.assistantId ? { assistant_id: input.assistantId } : {}),
          redTeam: redTeam?.ids ?? [],
          redTeamCount: redTeam?.count ?? 2,
        }).catch((error: unknown) => {
          // A missing provider key is explained by the shared dialog; other failures by the toast.
          if (error instanceof ApiError && error.reason) showErrorDialog(error);
          return null;
        });
        const id = started?.data?.generatequestionsId;
        if (!id) {
          toast.error(EVALUATION_MESSAGES.generationStartFailed);
          return;
        }
        for (let attempt = 1; attempt <= QUESTION_POLL_MAX_ATTEMPTS; attempt += 1) {
          await wait(QUESTION_POLL_INTERVAL_MS, controller.signal);
          const polled = await pollQuestionGeneration(id).catch(() => null);
          if (!polled) continue;
          if (polled.data.status === 'failed' || !polled.success) {
            toast.error(EVALUATION_MESSAGES.generationFailed);
            return;
          }
          if (polled.data.status === 'complete') {
            setResults(polled.data.results.results);
            setGenerateOpen(false);
            setReviewOpen(true);
            return;
          }
        }
        toast.error(EVALUATION_MESSAGES.generationTimedOut);
      } catch (error) {
        if (!(error instanceof DOMException && error.name === 'AbortError')) {
          toast.error(EVALUATION_MESSAGES.generationFailed);
        }
      } finally {
        if (abort.current === controller) setBusy(false);
      }
    },
    [input.prompt, input.testingModel, input.assistantId],
  );

  const mark = useCallback((category: string, index: number, status: 'added' | 'rejected') => {
    setResults((previous) => {
      if (!previous) return previous;
      const list = previous[category] ?? [];
      return {
        ...previous,
        [category]: list.map((item, i) => (i === index ? { ...item, status } : item)),
      };
    });
  }, []);

  const generateNew = useCallback(() => {
    setReviewOpen(false);
    setResults(null);
    setGenerateOpen(true);
  }, []);

  const closeGenerate = useCallback((next: boolean) => {
    if (!next) abort.current?.abort();
    setGenerateOpen(next);
  }, []);

  return {
    generateOpen,
    reviewOpen,
    busy,
    results,
    open,
    generate,
    mark,
    generateNew,
    setGenerateOpen: closeGenerate,
    setReviewOpen,
  };
};
