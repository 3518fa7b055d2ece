import { describe, expect, it } from 'vitest';
import { convertToolSchema, modelToolName, validateToolArguments } from './app-tools';

describe('convertToolSchema', () => {
  it('reads input_parameters, upper-cases the slug and takes the version from schema_version', () => {
    const raw = {
      slug: 'googlecalendar_create_event',
      description: 'Creates an event',
      schema_version: 3,
      input_parameters: {
        title: 'CreateEventRequest',
        properties: { start: { type: 'string' }, minutes: { type: 'integer' } },
        required: ['start', 'missing'],
      },
    };
    expect(convertToolSchema(raw)).toEqual({
      slug: 'GOOGLECALENDAR_CREATE_EVENT',
      schema: {
        type: 'object',
        properties: { start: { type: 'string' }, minutes: { type: 'integer' } },
        required: ['start'],
        description: 'Creates an event',
        title: 'Googlecalendar create event',
      },
      raw,
      version: '3',
      source: 'composio',
    });
  });

  it('titles a tool by its display name or its slug in words, never by its schema title', () => {
    const parameters = { title: 'CreateEventRequest', properties: {} };
    expect(
      convertToolSchema({ slug: 'GOOGLECALENDAR_CREATE_EVENT', name: 'Create Event', input_parameters: parameters })
        .schema.title,
    ).toBe('Create Event');
    expect(
      convertToolSchema({
        slug: 'GOOGLECALENDAR_CREATE_EVENT',
        toolkit: { slug: 'googlecalendar' },
        input_parameters: parameters,
      }).schema.title,
    ).toBe('Create event');
    expect(
      convertToolSchema({ slug: 'GOOGLECALENDAR_CREATE_EVENT', input_parameters: parameters }).schema.title,
    ).not.toBe('CreateEventRequest');
    expect(convertToolSchema({ input_parameters: parameters }).schema.title).toBe('CreateEventRequest');
  });

  it('reads schema and version, and survives a record with nothing in it', () => {
    expect(convertToolSchema({ slug: 'x', version: '1.2', schema: { properties: {} } }).version).toBe('1.2');
    expect(convertToolSchema(null)).toMatchObject({
      slug: '',
      version: null,
      schema: { properties: {}, required: [] },
    });
  });
});

describe('validateToolArguments', () => {
  const schema = {
    properties: { start: { type: 'string' }, minutes: { type: 'integer', minimum: 15, maximum: 120 } },
    required: ['start'],
  };
  it('names the missing or bad field', () => {
    expect(validateToolArguments(schema, {})).toEqual({ field: 'start', message: 'start is required' });
    expect(validateToolArguments(schema, { start: 'now', minutes: 5 })?.field).toBe('minutes');
    expect(validateToolArguments(schema, { start: 'now', minutes: 30 })).toBeNull();
  });
});

describe('modelToolName', () => {
  it('keeps names a model can call', () => {
    expect(modelToolName('GMAIL_SEND_EMAIL')).toBe('GMAIL_SEND_EMAIL');
    expect(modelToolName('1 weird.name')).toBe('weird_name');
  });
});
