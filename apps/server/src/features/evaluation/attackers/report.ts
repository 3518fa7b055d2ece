import { ADAPTIVE_STRATEGY_LABELS, type TAdaptiveAttack } from '@switchboard/core';

/**
 * An adaptive attack in the branded report: strategy, budget used, then every step with the
 * judge's score, backtracked steps marked.
 */
export const attackReportHtml = (attack: TAdaptiveAttack, escapeHtml: (text: string) => string) => {
  const { budget } = attack;
  const used = `${budget.turns} of ${budget.maxTurns} turns · ${budget.calls} of ${budget.maxCalls} attacker and judge calls${attack.strategy === 'crescendo' ? ` · ${budget.backtracks} of ${budget.maxBacktracks} backtracks` : ''}`;
  const steps = attack.steps
    .map(
      (step, index) =>
        `<li${step.backtracked ? ' class="backtracked"' : ''}><strong>Step ${index + 1} · turn ${step.turn} · ${step.score === null ? 'not judged' : `judge ${step.score}/10`}${step.backtracked ? ' · backtracked (taken out of the agent’s history)' : ''}</strong><br><strong>Attacker:</strong> ${escapeHtml(step.attack)}<br><strong>Agent:</strong> ${escapeHtml(step.reply)}<br><em>${escapeHtml(step.feedback)}</em></li>`,
    )
    .join('');
  return `<p><strong>Adaptive attack:</strong> ${escapeHtml(ADAPTIVE_STRATEGY_LABELS[attack.strategy])} · ${escapeHtml(used)}</p>
<ol class="transcript">${steps}</ol>`;
};
