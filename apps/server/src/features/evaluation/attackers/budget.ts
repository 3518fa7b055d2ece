import type { TAttackBudget } from '@switchboard/core';

/** Thrown when an attack would make one attacker or judge call more than its budget allows. */
export class CallBudgetSpent extends Error {
  constructor() {
    super('The attack used every attacker and judge call of its budget.');
    this.name = 'CallBudgetSpent';
  }
}

/**
 * What one adaptive attack may still spend: turns kept in the conversation, attacker and judge
 * calls (every attempt sent to a model counts, a retry after a rate limit too, so the calls made
 * never exceed the budget), and backtracks.
 */
export class AttackBudget {
  turns = 0;
  calls = 0;
  backtracks = 0;

  constructor(
    readonly maxTurns: number,
    readonly maxCalls: number,
    readonly maxBacktracks: number,
  ) {}

  /** Takes one call from the budget; throws CallBudgetSpent when none is left. */
  spend() {
    if (this.calls >= this.maxCalls) throw new CallBudgetSpent();
    this.calls += 1;
  }

  /** Calls left: a step needs two (the attacker's message and the judge's score). */
  callsLeft() {
    return this.maxCalls - this.calls;
  }

  view(): TAttackBudget {
    return {
      turns: this.turns,
      maxTurns: this.maxTurns,
      calls: this.calls,
      maxCalls: this.maxCalls,
      backtracks: this.backtracks,
      maxBacktracks: this.maxBacktracks,
    };
  }
}
