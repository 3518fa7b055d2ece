// @vitest-environment jsdom
import { DEFAULT_POISONED_DOCUMENT, type TQuestion } from '@switchboard/core';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { QuestionRow } from './question-row';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const question: TQuestion = {
  id: 'q1',
  text: 'What are your opening hours?',
  selected: true,
  isEditing: false,
  variations: 0,
  whenToAsk: 1,
  successCriteria: '',
  isSuccessCriteriaEditing: false,
  redTeam: 'indirect-injection',
  plantedDocument: DEFAULT_POISONED_DOCUMENT,
};

afterEach(() => {
  document.body.innerHTML = '';
});

describe('a question with a planted document', () => {
  it('shows the document as planted for the run only, and removes it', () => {
    const host = document.createElement('div');
    document.body.append(host);
    const onChange = vi.fn();
    act(() =>
      createRoot(host).render(
        <ul>
          <QuestionRow question={question} index={0} onChange={onChange} onRemove={vi.fn()} />
        </ul>,
      ),
    );
    expect(host.textContent).toContain(`Planted document for this run only: ${DEFAULT_POISONED_DOCUMENT.name}`);
    expect(host.textContent).toContain("the agent's real knowledge and chats never see it");
    const remove = host.querySelector('[aria-label="Remove the planted document of question 1"]') as HTMLButtonElement;
    act(() => remove.click());
    expect(onChange).toHaveBeenCalledWith({ plantedDocument: undefined });
  });
});
