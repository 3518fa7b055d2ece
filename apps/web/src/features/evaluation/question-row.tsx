import { type TQuestion, VARIATIONS_MAX, VARIATIONS_MIN, WHEN_TO_ASK_MAX, WHEN_TO_ASK_MIN } from '@switchboard/core';
import { Trash2 } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { ChecksEditor } from './checks-editor';
import { EditableText } from './editable-text';
import { Stepper } from './stepper';

/** One question: selection, text, Variations and When to Ask steppers, success criteria, removal. */
export const QuestionRow = ({
  question,
  index,
  onChange,
  onRemove,
}: {
  question: TQuestion;
  index: number;
  onChange: (patch: Partial<TQuestion>) => void;
  onRemove: () => void;
}) => (
  <li className="rounded-lg border border-border bg-background p-3">
    <div className="flex items-start gap-3">
      <input
        type="checkbox"
        className="mt-1 h-4 w-4 accent-[var(--primary,#43c0b8)]"
        checked={question.selected}
        onChange={(event) => onChange({ selected: event.target.checked })}
        aria-label={`Select question ${index + 1}`}
      />
      <div className="min-w-0 flex-1 space-y-2">
        <EditableText
          label={`Question ${index + 1}`}
          value={question.text}
          editing={question.isEditing}
          placeholder="Write the question the simulated user asks"
          onSave={(text) => onChange({ text })}
          onEditingChange={(isEditing) => onChange({ isEditing })}
        />
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <Stepper
            label="Variations"
            value={question.variations}
            min={VARIATIONS_MIN}
            max={VARIATIONS_MAX}
            onChange={(variations) => onChange({ variations })}
          />
          <Stepper
            label="When to Ask"
            value={question.whenToAsk}
            min={WHEN_TO_ASK_MIN}
            max={WHEN_TO_ASK_MAX}
            onChange={(whenToAsk) => onChange({ whenToAsk })}
          />
        </div>
        <div>
          <p className="text-xs font-medium text-muted">Success criteria</p>
          <EditableText
            label={`Success criteria of question ${index + 1}`}
            value={question.successCriteria}
            editing={question.isSuccessCriteriaEditing}
            placeholder="What a good answer does"
            onSave={(successCriteria) => onChange({ successCriteria })}
            onEditingChange={(isSuccessCriteriaEditing) => onChange({ isSuccessCriteriaEditing })}
          />
        </div>
        {question.replay ? (
          <p className="text-xs text-muted">
            From a real conversation ({question.replay.source}): {question.replay.history.length} earlier messages are
            replayed before it.
          </p>
        ) : null}
        {question.plantedDocument ? (
          <details className="rounded-md border border-border p-2 text-xs">
            <summary className="cursor-pointer">
              Planted document for this run only: {question.plantedDocument.name}
            </summary>
            <p className="mt-1 text-muted">
              Added to a copy of the agent's knowledge for this question's conversations; the agent's real knowledge and
              chats never see it.
            </p>
            <p className="mt-1 whitespace-pre-wrap">{question.plantedDocument.content}</p>
            <Button
              variant="ghost"
              size="sm"
              className="mt-1"
              onClick={() => onChange({ plantedDocument: undefined })}
              aria-label={`Remove the planted document of question ${index + 1}`}
            >
              Remove planted document
            </Button>
          </details>
        ) : null}
        <ChecksEditor
          checks={question.checks ?? []}
          questionLabel={`question ${index + 1}`}
          onChange={(checks) => onChange({ checks })}
          passThreshold={question.passThreshold}
          onThresholdChange={(passThreshold) => onChange({ passThreshold })}
        />
      </div>
      <Button
        variant="ghost"
        size="sm"
        className="h-8 px-2"
        aria-label={`Remove question ${index + 1}`}
        onClick={onRemove}
      >
        <Trash2 size={16} aria-hidden="true" />
      </Button>
    </div>
  </li>
);
