/**
 * A local OpenAI-compatible chat completions server for tests and the benchmark. It plays every
 * role of an evaluation deterministically, recognised by the system prompt:
 * - simulated user: "Small talk {n}";
 * - rewording: the question with " [v{n}]";
 * - judge: fails an answer containing "BREAK", passes any other, quoting the answer;
 * - question generator: "{category} question {i}";
 * - agent under test: "Answer to: {last user message}", or "BREAK: rules off" for a message with "jailbreak".
 */
export interface StubLlm {
  url: string;
  /** Every request body received, in order. */
  requests: {
    system: string;
    messages: {
      role: string;
      content: string;
    }[];
    stream: boolean;
  }[];
  /** Answers this many next requests with a 429 rate limit. */
  rateLimitNext(count: number): void;
  calls(): number;
  close(): Promise<void>;
}
export declare const answerFor: (
  system: string,
  messages: {
    role: string;
    content: string;
  }[],
) => string;
export declare const startStubLlm: (options?: { latencyMs?: number; record?: boolean }) => Promise<StubLlm>;
export declare const failureFor: (
  system: string,
  messages: {
    role: string;
    content: string;
  }[],
) => {
  status: number;
  body: object;
} | null;
