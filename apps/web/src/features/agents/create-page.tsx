import type { TAgent } from '@switchboard/core';
import { Check, Circle, Loader2, Sparkles } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { FieldError, Label, Select, Textarea } from '../../components/ui/input';
import { cn } from '../../lib/cn';
import { storage } from '../../lib/storage';
import { toast } from '../../lib/toast';
import { PlanLimitAction } from '../billing/plan-limit-action';
import { useSession } from '../session/session';
import { WizardFooter } from './agent-page-header';
import { useModels } from './api';
import { type CreationPhase, type DraftSource, useAgentCreation } from './use-agent-creation';

/** What the agent page's arrival says about a draft the chosen model did not write. */
const DRAFT_NOTICES: Partial<Record<DraftSource, string>> = {
  offline: 'Drafted by the offline model. Review the instructions before going live.',
  'offline-fallback':
    "The model's answer could not be used, so this draft was written offline. Review it before going live.",
};

export const PENDING_IDEA_KEY = 'agents:pendingIdea';
const DEBOUNCE_MS = 300;

const EXAMPLES = [
  'A friendly receptionist for a dental clinic that answers questions and books appointments',
  'A sales assistant for a solar installer that qualifies homeowners and explains savings',
  'A support agent for an online bike shop that handles orders, returns and sizing',
];

const STEPS: { phase: CreationPhase; label: string }[] = [
  { phase: 'requesting', label: 'Designing your agent' },
  { phase: 'hydrating', label: 'Loading your agent' },
  { phase: 'ready', label: 'Ready' },
];
const ORDER: CreationPhase[] = ['idle', 'requesting', 'hydrating', 'ready'];

const PhaseList = ({ phase }: { phase: CreationPhase }) => {
  const at = ORDER.indexOf(phase);
  return (
    <ol className="space-y-2" aria-label="Creation progress">
      {STEPS.map((step) => {
        const index = ORDER.indexOf(step.phase);
        const done = at > index || phase === 'ready';
        const active = at === index && phase !== 'ready';
        return (
          <li key={step.phase} className="flex items-center gap-2 text-sm" data-done={done} data-active={active}>
            {done ? (
              <Check size={16} className="text-primary" aria-hidden="true" />
            ) : active ? (
              <Loader2 size={16} className="animate-spin text-primary" aria-hidden="true" />
            ) : (
              <Circle size={16} className="text-muted" aria-hidden="true" />
            )}
            <span className={cn(active || done ? 'text-foreground' : 'text-muted')}>{step.label}</span>
          </li>
        );
      })}
    </ol>
  );
};

/** /agents/create, the post-login landing: describe an agent in a sentence and get it built. */
export const CreateAgentPage = () => {
  const navigate = useNavigate();
  const { currentSubaccount } = useSession();
  const [idea, setIdea] = useState(() => storage.get<string>(PENDING_IDEA_KEY, ''));
  const [touched, setTouched] = useState(false);
  const models = useModels();
  const options = models.data?.models ?? [];
  // The first configured provider's model is preselected, as the builder would pick it.
  const [model, setModel] = useState('');
  const preferred = options.find((option) => option.provider !== 'offline') ?? options[0];
  const chosen = model || (preferred ? `${preferred.provider}::${preferred.model}` : '');
  const onReady = useCallback(
    (agent: TAgent, source: DraftSource) => {
      storage.remove(PENDING_IDEA_KEY);
      const notice = DRAFT_NOTICES[source];
      if (notice) toast.info(notice);
      navigate(`/agents/${agent.id}`);
    },
    [navigate],
  );
  const creation = useAgentCreation(onReady);

  useEffect(() => {
    const timer = setTimeout(() => {
      if (idea.trim()) storage.set(PENDING_IDEA_KEY, idea);
      else storage.remove(PENDING_IDEA_KEY);
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [idea]);

  const ideaError = touched && idea.trim().length < 3 ? 'Describe your agent in a few words' : null;
  const canCreate = currentSubaccount?.role !== 'viewer';

  const submit = () => {
    setTouched(true);
    if (idea.trim().length < 3 || creation.creating) return;
    const [provider = '', ...rest] = chosen.split('::');
    void creation.create(
      crypto.randomUUID(),
      idea.trim(),
      provider && rest.length ? { provider, model: rest.join('::') } : undefined,
    );
  };

  return (
    <div className="mx-auto w-full max-w-3xl space-y-6 p-4 md:p-8">
      <div className="space-y-2 text-center">
        <span className="inline-flex items-center gap-1 rounded-full bg-surface-2 px-3 py-1 text-xs text-muted">
          <Sparkles size={14} aria-hidden="true" /> New Agent
        </span>
        <h1 className="text-3xl font-semibold md:text-4xl">What should your agent do?</h1>
        <p className="text-muted">
          Describe it in a sentence. Switchboard writes its instructions, greeting and suggested questions, then opens
          it so you can test it, give it documents and put it on your channels.
        </p>
      </div>

      <Card className="space-y-4">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
          className="space-y-3"
        >
          <Label htmlFor="agent-idea">Your agent idea</Label>
          <Textarea
            id="agent-idea"
            value={idea}
            onChange={(event) => setIdea(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey) {
                event.preventDefault();
                submit();
              }
            }}
            placeholder="e.g. A friendly receptionist for a dental clinic that books appointments"
            maxLength={2000}
            rows={4}
            aria-invalid={Boolean(ideaError)}
            aria-describedby={ideaError ? 'agent-idea-error' : undefined}
            disabled={creation.creating}
            className="text-base"
          />
          <FieldError id="agent-idea-error">{ideaError}</FieldError>
          <p className="text-xs text-muted">Your idea is kept in this browser until the agent is created.</p>
          <div className="space-y-1">
            <Label htmlFor="agent-build-model">Model that writes the draft</Label>
            <Select
              id="agent-build-model"
              value={chosen}
              onChange={(event) => setModel(event.target.value)}
              disabled={creation.creating || !options.length}
            >
              {options.map((option) => (
                <option key={`${option.provider}::${option.model}`} value={`${option.provider}::${option.model}`}>
                  {option.label}
                </option>
              ))}
            </Select>
            <p className="text-xs text-muted">The new agent answers with this model too; change it any time.</p>
          </div>
          <WizardFooter
            onBack={() => navigate('/agents')}
            onNext={submit}
            nextLabel="Create agent"
            busy={creation.creating}
            nextDisabled={!canCreate}
          />
          {!canCreate ? <p className="text-sm text-muted">Viewers cannot create agents.</p> : null}
        </form>

        {creation.phase !== 'idle' ? (
          <div className="rounded-lg border border-border p-4" data-phase={creation.phase} aria-live="polite">
            {creation.phase === 'error' ? (
              <div role="alert" className="space-y-2">
                <p className="font-medium text-danger">{creation.error}</p>
                <div className="flex flex-wrap gap-2">
                  <PlanLimitAction code={creation.errorCode} />
                  <Button variant="secondary" size="sm" onClick={submit}>
                    Try again
                  </Button>
                </div>
              </div>
            ) : (
              <PhaseList phase={creation.phase} />
            )}
          </div>
        ) : null}
      </Card>

      <section aria-labelledby="examples-heading" className="space-y-2">
        <h2 id="examples-heading" className="text-sm font-medium text-muted">
          Need inspiration? Start from one of these
        </h2>
        <div className="grid gap-2 md:grid-cols-3">
          {EXAMPLES.map((example) => (
            <button
              key={example}
              type="button"
              onClick={() => setIdea(example)}
              disabled={creation.creating}
              className="rounded-lg border border-border bg-surface p-3 text-left text-sm hover:border-primary"
            >
              {example}
            </button>
          ))}
        </div>
      </section>

      <p className="text-center text-sm text-muted">
        Already have agents?{' '}
        <Link to="/agents" className="underline decoration-primary decoration-2">
          Open your agents
        </Link>
      </p>
    </div>
  );
};
