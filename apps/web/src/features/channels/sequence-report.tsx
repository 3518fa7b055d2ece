import type { TCampaign, TSequenceStepReport, TStepFigures } from '@switchboard/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api';
import { CONDITION_LABELS, UNIT_LABELS } from './sequence-editor';

/** One campaign as the server reports it, with its sequence and each step's figures. */
export const useCampaignDetail = (connectionId: string, campaignId: string | null) =>
  useQuery({
    queryKey: ['channel', connectionId, 'campaign', campaignId],
    queryFn: () => api<TCampaign>(`/api/channels/${connectionId}/campaigns/${campaignId}`, { silent: true }),
    enabled: Boolean(campaignId),
  });

const COLUMNS: [keyof TStepFigures, string][] = [
  ['sent', 'Sent'],
  ['delivered', 'Delivered'],
  ['failed', 'Failed'],
  ['replied', 'Replied'],
  ['converted', 'Converted'],
  ['left', 'Left the sequence'],
  ['waiting', 'Waiting'],
];

const whenOf = (step: TSequenceStepReport) =>
  step.delay
    ? `${step.delay.amount} ${step.delay.amount === 1 ? UNIT_LABELS[step.delay.unit].replace(/s$/, '') : UNIT_LABELS[step.delay.unit]} after step ${step.step - 1}`
    : 'When the campaign starts';

/** Each step of a sequence with what it did: sent, delivered, failed, replied, converted, left. */
export const SequenceReport = ({ connectionId, campaignId }: { connectionId: string; campaignId: string }) => {
  const detail = useCampaignDetail(connectionId, campaignId);
  const sequence = detail.data?.sequence;
  if (!sequence) return null;
  return (
    <div className="mt-4">
      <h3 className="text-sm font-semibold">Sequence</h3>
      <p className="mt-1 text-xs text-muted">
        {sequence.stopOnReply ? 'A reply ends the sequence for that contact. ' : 'Replies do not end the sequence. '}
        {sequence.stopOnGoal ? 'So does reaching the goal (a link clicked or a conversion reported). ' : ''}
        An opt-out always does.
      </p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable table must be reachable by keyboard */}
      <section tabIndex={0} aria-label="Figures of each step" className="relative mt-2 overflow-x-auto">
        <table className="w-full min-w-[640px] text-sm">
          <thead>
            <tr className="border-b border-border text-left text-xs text-muted">
              <th scope="col" className="py-2 pr-3 font-medium">
                Step
              </th>
              {COLUMNS.map(([key, label]) => (
                <th key={key} scope="col" className="px-2 py-2 text-right font-medium">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {sequence.steps.map((step) => (
              <tr key={step.step} className="border-b border-border align-top" data-testid={`step-${step.step}`}>
                <th scope="row" className="max-w-[16rem] py-2 pr-3 text-left font-normal">
                  <span className="font-semibold">Step {step.step}</span>
                  <span className="block text-xs text-muted">
                    {whenOf(step)}
                    {step.step > 1 ? ` · ${CONDITION_LABELS[step.condition]}` : ''}
                  </span>
                  <span className="mt-1 block truncate text-xs" title={step.message}>
                    {step.message}
                  </span>
                  {step.figures.notPicked || step.figures.skipped ? (
                    <span className="block text-xs text-muted">
                      {step.figures.notPicked ? `${step.figures.notPicked} not picked by the condition` : ''}
                      {step.figures.notPicked && step.figures.skipped ? ' · ' : ''}
                      {step.figures.skipped ? `${step.figures.skipped} skipped` : ''}
                    </span>
                  ) : null}
                </th>
                {COLUMNS.map(([key]) => (
                  <td key={key} className="px-2 py-2 text-right tabular-nums" data-testid={`step-${step.step}-${key}`}>
                    {step.figures[key]}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
};
