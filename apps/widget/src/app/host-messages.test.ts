import { describe, expect, it } from 'vitest';
import { HOST_SOURCE } from '../protocol';
import { hostCommandOf } from './host-messages';

describe('commands from the host page', () => {
  const parent = {};
  const open = { source: HOST_SOURCE, type: 'open', host: 'https://allowed.example' };

  it('accepts the real parent at its origin, taking the host from the message origin', () => {
    const command = hostCommandOf(
      { data: open, origin: 'https://shop.example', source: parent },
      parent,
      'https://shop.example',
    );
    expect(command).toMatchObject({ type: 'open', host: 'https://shop.example' });
  });

  it('refuses another window, another origin, and other messages', () => {
    expect(
      hostCommandOf({ data: open, origin: 'https://shop.example', source: {} }, parent, 'https://shop.example'),
    ).toBeNull();
    expect(
      hostCommandOf({ data: open, origin: 'https://evil.example', source: parent }, parent, 'https://shop.example'),
    ).toBeNull();
    expect(
      hostCommandOf({ data: { type: 'open' }, origin: 'https://shop.example', source: parent }, parent, ''),
    ).toBeNull();
  });
});
