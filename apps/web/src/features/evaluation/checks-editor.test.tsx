// @vitest-environment jsdom
import type { TQuestionCheck } from '@switchboard/core';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChecksEditor } from './checks-editor';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const mount = (checks: TQuestionCheck[] = [], passThreshold?: number) => {
  const host = document.createElement('div');
  document.body.append(host);
  const onChange = vi.fn();
  const onThresholdChange = vi.fn();
  act(() =>
    createRoot(host).render(
      <ChecksEditor
        checks={checks}
        questionLabel="question 1"
        onChange={onChange}
        passThreshold={passThreshold}
        onThresholdChange={onThresholdChange}
      />,
    ),
  );
  return { host, onChange, onThresholdChange };
};

/** Types into a controlled input the way React notices. */
const type = (element: Element | null, value: string) => {
  const target = element as HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
  const proto = Object.getPrototypeOf(target);
  act(() => {
    Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(target, value);
    target.dispatchEvent(new Event(target instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }));
  });
};
const labelled = (host: HTMLElement, text: string) => {
  const label = [...host.querySelectorAll('label')].find((item) => item.textContent?.startsWith(text));
  return label?.htmlFor ? document.getElementById(label.htmlFor) : null;
};
const click = (host: HTMLElement, text: string) => {
  const button = [...host.querySelectorAll('button')].find((item) => item.textContent?.includes(text));
  act(() => button?.click());
};

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the checks editor', () => {
  it('adds a JSON schema check with a weight, and refuses a schema that is not JSON', () => {
    const { host, onChange } = mount();
    type(labelled(host, 'Check'), 'json_schema');
    const schema = labelled(host, 'JSON schema');
    expect(schema?.tagName).toBe('TEXTAREA');
    type(schema, '{"type": "object"');
    click(host, 'Add check');
    expect(host.textContent).toContain('The schema is not valid JSON.');
    expect(onChange).not.toHaveBeenCalled();
    type(schema, '{"type": "object", "required": ["price"]}');
    type(labelled(host, 'Weight'), '3');
    click(host, 'Add check');
    expect(onChange).toHaveBeenCalledWith([
      { type: 'json_schema', schema: { type: 'object', required: ['price'] }, weight: 3 },
    ]);
  });

  it('adds a semantic similarity check (0.8 unless given) and says what it compares with', () => {
    const { host, onChange } = mount();
    type(labelled(host, 'Check'), 'semantic_similarity');
    expect(host.textContent).toContain("agent's embedding model; without one, term vectors");
    type(labelled(host, 'Reference answer'), 'A 4 kW system costs 6,000 pounds.');
    click(host, 'Add check');
    expect(onChange).toHaveBeenCalledWith([
      { type: 'semantic_similarity', reference: 'A 4 kW system costs 6,000 pounds.', min: 0.8 },
    ]);
  });

  it('adds the knowledge-grounded checks: retrieval recall with its sources, faithfulness without input', () => {
    const { host, onChange } = mount();
    type(labelled(host, 'Check'), 'retrieval_recall');
    type(labelled(host, 'Expected sources'), 'price-list.pdf, warranty.pdf');
    type(labelled(host, 'Lowest recall'), '0.5');
    click(host, 'Add check');
    expect(onChange).toHaveBeenLastCalledWith([
      { type: 'retrieval_recall', expected: ['price-list.pdf', 'warranty.pdf'], min: 0.5 },
    ]);
    type(labelled(host, 'Check'), 'faithfulness');
    expect(host.textContent).toContain('claims of the answer the retrieved excerpts do not support');
    click(host, 'Add check');
    expect(onChange).toHaveBeenLastCalledWith([{ type: 'faithfulness' }]);
  });

  it('refuses a weight out of range', () => {
    const { host, onChange } = mount();
    type(labelled(host, 'Text'), 'kW');
    type(labelled(host, 'Weight'), '-1');
    click(host, 'Add check');
    expect(host.textContent).toContain('A weight is a number from 0 to 100.');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('sets the pass threshold as a percentage, empty for every check, and lists weights', () => {
    const { host, onThresholdChange } = mount([{ type: 'contains', value: 'kW', weight: 2 }]);
    expect(host.textContent).toContain('Contains "kW" · weight 2');
    expect(host.textContent).toContain('Every check must pass.');
    const threshold = labelled(host, 'Pass threshold') as HTMLInputElement;
    type(threshold, '70');
    act(() => threshold.dispatchEvent(new FocusEvent('focusout', { bubbles: true })));
    expect(onThresholdChange).toHaveBeenLastCalledWith(0.7);
    type(threshold, '150');
    act(() => threshold.dispatchEvent(new FocusEvent('focusout', { bubbles: true })));
    expect(host.textContent).toContain('Enter a percentage from 0 to 100');
    type(threshold, '');
    act(() => threshold.dispatchEvent(new FocusEvent('focusout', { bubbles: true })));
    expect(onThresholdChange).toHaveBeenLastCalledWith(undefined);
  });
});
