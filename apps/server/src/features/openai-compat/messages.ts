import type { JSONSchema7 } from '@ai-sdk/provider';
import type { TChatCompletionRequest } from '@switchboard/core';
import type { ModelMessage, ToolChoice, ToolSet } from 'ai';
import { AppError } from '../../platform/errors';
import type { CallerOptions } from '../conversations/reply';
import { compileJsonSchema } from '../llm/json-schema';

/** An OpenAI chat request read into what the agent's reply needs; every field it carries is used. */

const textOf = (content: unknown): string => {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: { type?: string; text?: string }) => (part.type === 'text' ? (part.text ?? '') : ''))
      .join('');
  }
  return '';
};

const parseArguments = (text: string, field: string): unknown => {
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    throw new AppError('VALIDATION_ERROR', 'Tool call arguments must be a JSON string', { field, status: 400 });
  }
};

export interface ReadRequest {
  /** The newest user message (what is stored and searched in the knowledge). */
  message: string;
  history: { role: 'user' | 'assistant'; content: string }[];
  caller: CallerOptions;
}

export const readChatRequest = async (body: TChatCompletionRequest): Promise<ReadRequest> => {
  const instructions = body.messages
    .filter((message) => message.role === 'system' || message.role === 'developer')
    .map((message) => textOf(message.content).trim())
    .filter(Boolean)
    .join('\n\n');
  const history = body.messages
    .filter((message) => message.role === 'user' || message.role === 'assistant')
    .map((message) => ({ role: message.role as 'user' | 'assistant', content: textOf(message.content) }))
    .filter((message) => message.content.trim());
  const lastUser = [...body.messages].reverse().find((message) => message.role === 'user');
  const lastMessage = body.messages[body.messages.length - 1];
  const toolTurn = body.messages.some((message) => message.role === 'tool' || message.tool_calls?.length);
  if (!lastUser || !textOf(lastUser.content).trim()) {
    throw new AppError('VALIDATION_ERROR', 'Send at least one user message with text', { field: 'messages' });
  }
  if (lastMessage?.role !== 'user' && lastMessage?.role !== 'tool') {
    throw new AppError('VALIDATION_ERROR', 'The last message must be a user message or a tool result', {
      field: 'messages',
    });
  }

  const caller: CallerOptions = {
    instructions: instructions || undefined,
    temperature: body.temperature ?? undefined,
    topP: body.top_p ?? undefined,
    maxTokens: body.max_completion_tokens ?? body.max_tokens ?? undefined,
    frequencyPenalty: body.frequency_penalty ?? undefined,
    presencePenalty: body.presence_penalty ?? undefined,
    stopSequences: body.stop === undefined || body.stop === null ? undefined : [body.stop].flat(),
    storeUserMessage: lastMessage.role === 'user',
  };

  if (body.tools?.length) {
    const { jsonSchema, tool } = await import('ai');
    const tools: ToolSet = {};
    for (const item of body.tools) {
      tools[item.function.name] = tool({
        description: item.function.description,
        inputSchema: jsonSchema((item.function.parameters ?? { type: 'object', properties: {} }) as JSONSchema7),
      });
    }
    caller.tools = tools;
  }
  if (body.tool_choice) {
    const choice = body.tool_choice;
    if (typeof choice === 'object' && !body.tools?.some((item) => item.function.name === choice.function.name)) {
      throw new AppError('VALIDATION_ERROR', `tool_choice names ${choice.function.name}, which is not in tools`, {
        field: 'tool_choice',
        status: 400,
      });
    }
    caller.toolChoice = (
      typeof choice === 'string' ? choice : { type: 'tool', toolName: choice.function.name }
    ) as ToolChoice<ToolSet>;
  }
  if (body.response_format?.type === 'json_object') caller.json = {};
  if (body.response_format?.type === 'json_schema') {
    const checked = compileJsonSchema((body.response_format.json_schema.schema ?? { type: 'object' }) as JSONSchema7);
    if ('error' in checked) {
      throw new AppError(
        'VALIDATION_ERROR',
        `response_format.json_schema.schema is not a valid JSON schema: ${checked.error}`,
        {
          field: 'response_format',
          status: 400,
        },
      );
    }
    caller.json = {
      schema: (body.response_format.json_schema.schema ?? { type: 'object' }) as JSONSchema7,
      name: body.response_format.json_schema.name,
    };
  }

  // Tool calls and their results keep their own shape; a plain conversation stays plain text.
  if (toolTurn || caller.tools) {
    const names = new Map<string, string>();
    const modelMessages: ModelMessage[] = [];
    body.messages.forEach((message, index) => {
      const text = textOf(message.content);
      if (message.role === 'user' && text.trim()) modelMessages.push({ role: 'user', content: text });
      else if (message.role === 'assistant') {
        const calls = (message.tool_calls ?? []).map((call) => {
          names.set(call.id, call.function.name);
          return {
            type: 'tool-call' as const,
            toolCallId: call.id,
            toolName: call.function.name,
            input: parseArguments(call.function.arguments, `messages.${index}.tool_calls`),
          };
        });
        if (text.trim() || calls.length) {
          modelMessages.push({
            role: 'assistant',
            content: [...(text.trim() ? [{ type: 'text' as const, text }] : []), ...calls],
          });
        }
      } else if (message.role === 'tool') {
        const id = message.tool_call_id ?? '';
        const name = names.get(id);
        if (!name) {
          throw new AppError(
            'VALIDATION_ERROR',
            'A tool message must answer a tool call of an earlier assistant message',
            {
              field: `messages.${index}.tool_call_id`,
              status: 400,
            },
          );
        }
        modelMessages.push({
          role: 'tool',
          content: [{ type: 'tool-result', toolCallId: id, toolName: name, output: { type: 'text', value: text } }],
        });
      }
    });
    caller.modelMessages = modelMessages;
  }
  return { message: textOf(lastUser.content).trim(), history, caller };
};
