import { describe, expect, it } from 'vitest';
import { contactLabel } from './contact-label';

describe('contactLabel', () => {
  it('names the person, then the username, then the id, then a visitor', () => {
    expect(contactLabel({ contactIdentifier: '1784', contactUsername: 'jane.doe', contactName: 'Jane Doe' })).toEqual({
      title: 'Jane Doe',
      detail: '@jane.doe',
    });
    expect(contactLabel({ contactIdentifier: '1784', contactUsername: 'jane.doe', contactName: null })).toEqual({
      title: '@jane.doe',
      detail: null,
    });
    expect(contactLabel({ contactIdentifier: '1784', contactUsername: null })).toEqual({ title: '1784', detail: null });
    expect(contactLabel({ contactIdentifier: null })).toEqual({ title: 'Visitor', detail: null });
  });
});
