import type { TCampaign, TCampaignAudienceSize, TCampaignEstimate } from '@switchboard/core';
import { useQuery } from '@tanstack/react-query';
import { Button } from '../../components/ui/button';
import { Dialog } from '../../components/ui/dialog';
import { api } from '../../lib/api';
import { CampaignTestSend } from './campaign-test-send';

const contactsText = (count: number) => `${count.toLocaleString('en')} ${count === 1 ? 'contact' : 'contacts'}`;

const plural = (count: number, one: string, many: string) =>
  `${count.toLocaleString('en')} ${count === 1 ? one : many}`;

/** Who the audience skips and who waits, in words ("" when nobody). */
export const audienceNotes = (size: TCampaignAudienceSize | undefined): string => {
  if (!size) return '';
  const optedOut = size.optedOut ?? 0;
  const skipped = [
    optedOut ? `${optedOut.toLocaleString('en')} opted out` : '',
    size.suppressed ? `${size.suppressed.toLocaleString('en')} suppressed (a send failed for good)` : '',
  ].filter(Boolean);
  const skippedCount = optedOut + size.suppressed;
  const held = size.heldByQuietHours ?? 0;
  return [
    skippedCount
      ? ` ${skippedCount.toLocaleString('en')} more ${skippedCount === 1 ? 'is' : 'are'} skipped: ${skipped.join(', ')}.`
      : '',
    held ? ` ${plural(held, 'contact waits', 'contacts wait')} for the end of quiet hours.` : '',
  ].join('');
};

/** The estimate in words: segments, price and cost, and that campaigns spend no credits. */
export const costText = (estimate: TCampaignEstimate | undefined): string => {
  if (!estimate) return '';
  if (estimate.sandbox) return ' Sandbox: nothing reaches a phone and nothing is charged; no credits are used.';
  const units =
    estimate.encoding === 'whatsapp'
      ? plural(estimate.segments, 'WhatsApp message', 'WhatsApp messages')
      : `${plural(estimate.segments, 'segment', 'segments')} (${estimate.encoding}, up to ${estimate.segmentsPerMessage} per message)`;
  const about = estimate.sampled ? 'about ' : '';
  if (!estimate.cost || !estimate.pricePerSegment)
    return ` That is ${about}${units}. Enter your provider’s price per segment in Settings for a cost estimate. No credits are used.`;
  return ` That is ${about}${units} × ${estimate.pricePerSegment.currency} ${estimate.pricePerSegment.amount} = estimated ${estimate.cost.currency} ${estimate.cost.amount}, charged by your provider. No credits are used.`;
};

/** What "Send now", "Schedule" or "Pause" will do, with the audience's count and, to send, the cost. */
export const confirmationText = (
  action: 'start' | 'pause',
  campaign: TCampaign,
  size: TCampaignAudienceSize | undefined,
  estimate?: TCampaignEstimate,
): { title: string; description: string; confirm: string } => {
  const notes = audienceNotes(size);
  const cost = costText(estimate);
  const audience = size ? contactsText(size.recipients) : 'the audience';
  if (action === 'start' && campaign.sendAt)
    return {
      title: `Schedule “${campaign.name}”?`,
      description: `It goes out at ${campaign.sendAt.replace('T', ' ')} (${campaign.timeZone}) to ${audience}.${notes}${cost}`,
      confirm: 'Schedule',
    };
  if (action === 'start')
    return {
      title: `Send “${campaign.name}” now?`,
      description: `It goes out now to ${audience}; sent messages cannot be taken back.${notes}${cost}`,
      confirm: 'Send now',
    };
  const left = campaign.figures.total ? campaign.figures.queued : (size?.recipients ?? 0);
  return {
    title: `Pause “${campaign.name}”?`,
    description:
      campaign.status === 'scheduled'
        ? `It does not go out at the scheduled time: ${audience} get nothing until you resume it.`
        : `${contactsText(left)} not yet sent to wait until you resume it; ${campaign.figures.sent.toLocaleString('en')} of ${campaign.figures.total.toLocaleString('en')} are sent.`,
    confirm: 'Pause',
  };
};

/** Asks before a campaign is sent, scheduled or paused, stating how many contacts it concerns. */
export const CampaignActionDialog = ({
  connectionId,
  campaign,
  action,
  busy,
  onConfirm,
  onClose,
}: {
  connectionId: string;
  campaign: TCampaign;
  action: 'start' | 'pause';
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) => {
  const size = useQuery({
    queryKey: ['channel', connectionId, 'audience', campaign.campaignId],
    queryFn: () =>
      api<TCampaignAudienceSize>(`/api/channels/${connectionId}/campaigns/${campaign.campaignId}/audience`, {
        silent: true,
      }),
    enabled: action === 'pause',
  });
  const estimate = useQuery({
    queryKey: ['channel', connectionId, 'estimate', campaign.campaignId],
    queryFn: () =>
      api<TCampaignEstimate>(`/api/channels/${connectionId}/campaigns/${campaign.campaignId}/estimate`, {
        silent: true,
      }),
    enabled: action === 'start',
  });
  const counting = action === 'start' ? estimate.isLoading : size.isLoading;
  const text = confirmationText(action, campaign, size.data ?? estimate.data?.audience, estimate.data);
  return (
    <Dialog
      open
      onOpenChange={(open) => (open || busy ? undefined : onClose())}
      title={text.title}
      description={counting ? 'Counting the audience and the cost…' : text.description}
    >
      {action === 'start' && !campaign.whatsappTemplate ? (
        <CampaignTestSend connectionId={connectionId} campaignId={campaign.campaignId} />
      ) : null}
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button onClick={onConfirm} disabled={busy || counting}>
          {text.confirm}
        </Button>
      </div>
    </Dialog>
  );
};
