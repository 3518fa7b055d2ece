import { isToolNotCalled, type TToolCallView, toolNotCalledLabel } from '@switchboard/core';
import { Wrench } from 'lucide-react';
import { cn } from '../lib/cn';

/** A value of a tool call cut to one short line (JSON for objects). */
export const shortValue = (value: unknown) => {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
};

const failed = (output: unknown) =>
  Boolean(output && typeof output === 'object' && 'error' in (output as Record<string, unknown>));

/** A call a test recorded without making it (an evaluation run, the test chat, a demo). */
const notCalled = (call: TToolCallView) => Boolean(call.notCalled) || isToolNotCalled(call.output);

/** What the call would have sent: the recorded arguments (fixed values included), else the model's input. */
const wouldSend = (call: TToolCallView) => (isToolNotCalled(call.output) ? call.output.arguments : call.input);

/**
 * The tools an agent called for one reply: name(input) → output, a failed call marked as such, and
 * a call a test did not make as "Not called in a test run — would call name with input".
 */
export const ToolCallList = ({ calls, className }: { calls: TToolCallView[]; className?: string }) => (
  <ul className={cn('mt-1 max-w-[85%] space-y-1', className)} aria-label="Tool calls">
    {calls.map((call, index) => (
      <li
        // biome-ignore lint/suspicious/noArrayIndexKey: calls of one reply have no id but their order
        key={`${call.name}-${index}`}
        className={cn(
          'rounded-md border px-2 py-1 text-xs text-muted break-words',
          failed(call.output) ? 'border-danger' : 'border-border',
          notCalled(call) && 'border-dashed',
        )}
      >
        <Wrench size={12} className="mr-1 inline" aria-hidden="true" />
        {notCalled(call) ? (
          <span data-testid="tool-not-called">{toolNotCalledLabel(call.name, shortValue(wouldSend(call)))}</span>
        ) : (
          <>
            <span className="font-medium text-foreground">{call.name}</span>({shortValue(call.input)}) →{' '}
            {failed(call.output) ? <span className="font-medium text-danger">failed: </span> : null}
            {shortValue(call.output)}
          </>
        )}
      </li>
    ))}
  </ul>
);
