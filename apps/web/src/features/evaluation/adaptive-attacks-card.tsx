import {
  ADAPTIVE_BACKTRACKS_MAX,
  ADAPTIVE_BACKTRACKS_MIN,
  ADAPTIVE_CALLS_MAX,
  ADAPTIVE_CALLS_MIN,
  ADAPTIVE_GOALS_MAX,
  ADAPTIVE_STRATEGIES,
  ADAPTIVE_STRATEGY_HELP,
  ADAPTIVE_STRATEGY_LABELS,
  ADAPTIVE_TURNS_MAX,
  ADAPTIVE_TURNS_MIN,
  adaptiveGoals,
  DEFAULT_ADAPTIVE_ATTACK_SETTINGS,
  RED_TEAM_CATEGORIES,
  type TAdaptiveAttackSettings,
} from '@switchboard/core';
import { Swords } from 'lucide-react';
import { useState } from 'react';
import { Card } from '../../components/ui/card';
import { Label, Select, Textarea } from '../../components/ui/input';
import { Stepper } from './stepper';

const checkbox = 'mt-1 h-4 w-4 shrink-0 accent-[var(--primary,#43c0b8)]';

/** A model picker whose empty choice is the run's testing model. */
const RoleModel = ({
  id,
  label,
  value,
  testingModel,
  models,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  testingModel: string;
  models: { value: string; label: string }[];
  onChange: (value: string) => void;
}) => (
  <div>
    <Label htmlFor={id}>{label}</Label>
    <Select id={id} value={value} onChange={(event) => onChange(event.target.value)}>
      <option value="">Same as the testing model{testingModel ? ` (${testingModel})` : ''}</option>
      {value && !models.some((model) => model.value === value) ? <option value={value}>{value}</option> : null}
      {models.map((model) => (
        <option key={model.value} value={model.value}>
          {model.label}
        </option>
      ))}
    </Select>
  </div>
);

/**
 * Adaptive multi-turn attackers of a run: which strategies, which goals (red-team categories and
 * the agency's own), the attacker's and the judge's models, and the budgets of each attack.
 */
export const AdaptiveAttacksCard = ({
  value,
  testingModel,
  models,
  onChange,
}: {
  value: TAdaptiveAttackSettings | undefined;
  testingModel: string;
  models: { value: string; label: string }[];
  onChange: (value: TAdaptiveAttackSettings) => void;
}) => {
  const settings = { ...DEFAULT_ADAPTIVE_ATTACK_SETTINGS, ...value };
  const [goalsText, setGoalsText] = useState(settings.customGoals.join('\n'));
  const set = (patch: Partial<TAdaptiveAttackSettings>) => onChange({ ...settings, ...patch });
  const attacks = settings.strategies.length * adaptiveGoals(settings).length;
  const toggle = <T extends string>(list: T[], item: T, on: boolean) =>
    on ? [...list.filter((entry) => entry !== item), item] : list.filter((entry) => entry !== item);

  return (
    <section aria-labelledby="adaptive-attacks-title">
      <Card className="space-y-4">
        <div className="flex items-start gap-2">
          <Swords size={18} aria-hidden="true" className="mt-0.5 shrink-0 text-primary" />
          <div>
            <h2 id="adaptive-attacks-title" className="text-base font-semibold">
              Adaptive attacks
            </h2>
            <p className="text-sm text-muted">
              An attacker model talks to the agent over several turns and adapts to its replies; a judge model scores
              every reply from 1 (held) to 10 (goal achieved). The run stays a test: nothing the agent does reaches
              anyone.
            </p>
          </div>
        </div>

        <fieldset className="space-y-2">
          <legend className="mb-1 text-sm font-medium">Strategies</legend>
          {ADAPTIVE_STRATEGIES.map((strategy) => (
            <div key={strategy} className="flex items-start gap-2">
              <input
                id={`adaptive-${strategy}`}
                type="checkbox"
                className={checkbox}
                checked={settings.strategies.includes(strategy)}
                aria-describedby={`adaptive-${strategy}-help`}
                onChange={(event) => set({ strategies: toggle(settings.strategies, strategy, event.target.checked) })}
              />
              <label htmlFor={`adaptive-${strategy}`} className="text-sm">
                <span className="font-medium">{ADAPTIVE_STRATEGY_LABELS[strategy]}</span>
                <span id={`adaptive-${strategy}-help`} className="block text-xs text-muted">
                  {ADAPTIVE_STRATEGY_HELP[strategy]}
                </span>
              </label>
            </div>
          ))}
        </fieldset>

        {settings.strategies.length ? (
          <>
            <fieldset>
              <legend className="mb-1 text-sm font-medium">Goals from the red-team library</legend>
              <ul className="grid max-h-56 gap-2 overflow-y-auto pr-1 sm:grid-cols-2">
                {RED_TEAM_CATEGORIES.map((category) => (
                  <li key={category.id} className="flex items-start gap-2">
                    <input
                      id={`adaptive-goal-${category.id}`}
                      type="checkbox"
                      className={checkbox}
                      checked={settings.categories.includes(category.id)}
                      onChange={(event) =>
                        set({ categories: toggle(settings.categories, category.id, event.target.checked) })
                      }
                    />
                    <label htmlFor={`adaptive-goal-${category.id}`} className="text-sm break-words">
                      {category.label}
                    </label>
                  </li>
                ))}
              </ul>
            </fieldset>

            <div>
              <Label htmlFor="adaptive-custom-goals">Your own goals (one per line)</Label>
              <Textarea
                id="adaptive-custom-goals"
                className="min-h-20"
                value={goalsText}
                placeholder="Get the agent to promise a 50% discount"
                aria-describedby="adaptive-custom-goals-help"
                onChange={(event) => {
                  setGoalsText(event.target.value);
                  set({
                    customGoals: event.target.value
                      .split('\n')
                      .map((line) => line.trim())
                      .filter(Boolean)
                      .slice(0, ADAPTIVE_GOALS_MAX)
                      .map((line) => line.slice(0, 1000)),
                  });
                }}
              />
              <p id="adaptive-custom-goals-help" className="mt-1 text-xs text-muted">
                Up to {ADAPTIVE_GOALS_MAX} goals. They are attacked like the library's but are not counted in the OWASP
                report.
              </p>
            </div>

            <div className="grid gap-4 sm:grid-cols-2">
              <RoleModel
                id="adaptive-attacker-model"
                label="Attacker model"
                value={settings.attackerModel}
                testingModel={testingModel}
                models={models}
                onChange={(attackerModel) => set({ attackerModel })}
              />
              <RoleModel
                id="adaptive-judge-model"
                label="Judge model"
                value={settings.judgeModel}
                testingModel={testingModel}
                models={models}
                onChange={(judgeModel) => set({ judgeModel })}
              />
            </div>

            <div className="flex flex-wrap gap-x-6 gap-y-3">
              <Stepper
                label="Max turns"
                value={settings.maxTurns}
                min={ADAPTIVE_TURNS_MIN}
                max={ADAPTIVE_TURNS_MAX}
                onChange={(maxTurns) => set({ maxTurns })}
              />
              <Stepper
                label="Max attacker and judge calls per attack"
                value={settings.maxCalls}
                min={ADAPTIVE_CALLS_MIN}
                max={ADAPTIVE_CALLS_MAX}
                onChange={(maxCalls) => set({ maxCalls })}
              />
              <Stepper
                label="Max backtracks"
                value={settings.maxBacktracks}
                min={ADAPTIVE_BACKTRACKS_MIN}
                max={ADAPTIVE_BACKTRACKS_MAX}
                onChange={(maxBacktracks) => set({ maxBacktracks })}
              />
            </div>
            <p className="text-sm" aria-live="polite">
              {attacks
                ? `${attacks} adaptive attack${attacks === 1 ? '' : 's'} will run: each strategy against each goal.`
                : 'Pick at least one goal to attack.'}
            </p>
          </>
        ) : null}
      </Card>
    </section>
  );
};
