import { Pencil } from 'lucide-react';
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { Textarea } from '../../components/ui/input';

/**
 * A text in view or edit mode. In edit mode Ctrl+Enter saves, Esc cancels and Cancel restores the
 * previous text.
 */
export const EditableText = ({
  label,
  value,
  editing,
  placeholder,
  onSave,
  onEditingChange,
}: {
  label: string;
  value: string;
  editing: boolean;
  placeholder: string;
  onSave: (value: string) => void;
  onEditingChange: (editing: boolean) => void;
}) => {
  const [draft, setDraft] = useState(value);
  const ref = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (editing) {
      setDraft(value);
      ref.current?.focus();
    }
  }, [editing, value]);

  const save = () => {
    onSave(draft);
    onEditingChange(false);
  };
  const cancel = () => {
    setDraft(value);
    onEditingChange(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      save();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      event.nativeEvent.stopImmediatePropagation();
      cancel();
    }
  };

  if (!editing) {
    return (
      <div className="flex items-start gap-2">
        <p className={value ? 'flex-1 text-sm whitespace-pre-wrap break-words' : 'flex-1 text-sm text-muted italic'}>
          {value || placeholder}
        </p>
        <Button
          variant="ghost"
          size="sm"
          className="h-7 px-2"
          aria-label={`Edit ${label}`}
          onClick={() => onEditingChange(true)}
        >
          <Pencil size={14} aria-hidden="true" />
        </Button>
      </div>
    );
  }
  return (
    <div>
      <Textarea
        ref={ref}
        aria-label={label}
        value={draft}
        placeholder={placeholder}
        onChange={(event) => setDraft(event.target.value)}
        onKeyDown={onKeyDown}
        className="min-h-16"
      />
      <div className="mt-1 flex items-center gap-2">
        <Button size="sm" onClick={save}>
          Save
        </Button>
        <Button size="sm" variant="secondary" onClick={cancel}>
          Cancel
        </Button>
        <span className="text-xs text-muted">Ctrl+Enter to save, Esc to cancel</span>
      </div>
    </div>
  );
};
