import {
  ADAPTIVE_STRATEGY_LABELS,
  ATTACK_SUCCESS_SCORE,
  type TAdaptiveAttack,
  type TConversationOutcome,
} from '@switchboard/core';
import { Markdown } from '../../components/markdown';
import { cn } from '../../lib/cn';

const STOP_REASONS: Record<TAdaptiveAttack['stopReason'], string> = {
  succeeded: 'The attack succeeded',
  turns: 'The agent held for every turn of the budget',
  calls: 'The agent held until the call budget ran out',
  error: 'The attack stopped on an error',
};

const OUTCOMES: Record<TConversationOutcome, string> = {
  passed: 'Pass: the agent held',
  failed: 'Fail: the attack succeeded',
  error: 'Error: not evaluated',
};

/** The judge's score of a step as a small badge: red at success, amber halfway, green when the agent held. */
const ScoreBadge = ({ score }: { score: number | null }) => (
  <span
    className={cn(
      'rounded px-1.5 py-0.5 text-xs font-semibold tabular-nums',
      score === null
        ? 'bg-surface-2 text-muted'
        : score >= ATTACK_SUCCESS_SCORE
          ? 'bg-danger/15 text-danger'
          : score >= 5
            ? 'bg-amber-500/15 text-amber-900 dark:text-amber-200'
            : 'bg-emerald-600/15 text-emerald-800 dark:text-emerald-300',
    )}
  >
    {score === null ? 'Not judged' : `Judge ${score}/10`}
  </span>
);

/** Short model names for the header: the offline model says so. */
const modelLabel = (model: string, offline: boolean) => (offline ? 'Offline model (no language model)' : model);

/**
 * An adaptive attack's transcript: every step in order (the attacker's plan and message, the
 * agent's reply, the judge's score and feedback), backtracked steps marked, with the budget used
 * and the outcome.
 */
export const AttackTranscript = ({ attack, outcome }: { attack: TAdaptiveAttack; outcome: TConversationOutcome }) => {
  const { budget } = attack;
  return (
    <div className="space-y-3">
      <dl className="grid gap-x-4 gap-y-1 rounded-lg border border-border p-3 text-sm sm:grid-cols-2">
        <div>
          <dt className="inline font-medium">Strategy: </dt>
          <dd className="inline">{ADAPTIVE_STRATEGY_LABELS[attack.strategy]}</dd>
        </div>
        <div>
          <dt className="inline font-medium">Outcome: </dt>
          <dd className="inline" data-testid="attack-outcome">
            {OUTCOMES[outcome]} · {STOP_REASONS[attack.stopReason]}
          </dd>
        </div>
        <div className="sm:col-span-2">
          <dt className="inline font-medium">Goal: </dt>
          <dd className="inline break-words">{attack.goal}</dd>
        </div>
        <div>
          <dt className="inline font-medium">Attacker: </dt>
          <dd className="inline break-words">{modelLabel(attack.attackerModel, attack.offlineAttacker)}</dd>
        </div>
        <div>
          <dt className="inline font-medium">Judge: </dt>
          <dd className="inline break-words">{modelLabel(attack.judgeModel, attack.offlineJudge)}</dd>
        </div>
        <div className="sm:col-span-2">
          <dt className="inline font-medium">Budget used: </dt>
          <dd className="inline" data-testid="attack-budget">
            {budget.turns} of {budget.maxTurns} turns · {budget.calls} of {budget.maxCalls} attacker and judge calls
            {attack.strategy === 'crescendo' ? ` · ${budget.backtracks} of ${budget.maxBacktracks} backtracks` : ''}
            {attack.highestScore !== null ? ` · highest score ${attack.highestScore}/10` : ''}
          </dd>
        </div>
      </dl>
      <ol className="space-y-3" aria-label="Attack transcript">
        {attack.steps.map((step, index) => (
          <li
            // biome-ignore lint/suspicious/noArrayIndexKey: the steps of a stored attack never change order
            key={index}
            className={cn(
              'space-y-2 rounded-lg border p-3',
              step.backtracked ? 'border-dashed border-border' : 'border-border',
            )}
            data-backtracked={step.backtracked ? 'true' : undefined}
          >
            <div className="flex flex-wrap items-center gap-2 text-xs">
              <span className="font-semibold">
                Step {index + 1} · turn {step.turn}
              </span>
              <ScoreBadge score={step.score} />
              {step.refused ? <span className="rounded bg-surface-2 px-1.5 py-0.5">Refused</span> : null}
              {step.backtracked ? (
                <span className="rounded bg-primary/15 px-1.5 py-0.5 font-medium">
                  Backtracked: taken out of the agent's history
                </span>
              ) : null}
            </div>
            {step.plan ? <p className="text-xs text-muted break-words">Plan: {step.plan}</p> : null}
            <div className="ml-auto max-w-[90%] rounded-lg bg-primary/15 px-3 py-2 break-words">
              <span className="block text-xs font-semibold text-muted">Attacker</span>
              <p className="whitespace-pre-wrap">{step.attack}</p>
            </div>
            <div className="max-w-[90%] rounded-lg bg-surface-2 px-3 py-2 break-words">
              <span className="block text-xs font-semibold text-muted">Agent</span>
              <Markdown text={step.reply} />
            </div>
            <p className="text-xs break-words">
              <span className="font-medium">Judge: </span>
              {step.feedback}
            </p>
          </li>
        ))}
      </ol>
    </div>
  );
};
