import {
  QUESTIONS_CSV_MAX_CHARS,
  questionsCsv,
  type TImportQuestionsResponse,
  type TQuestion,
} from '@switchboard/core';
import { Download, Upload } from 'lucide-react';
import { type ChangeEvent, useId, useState } from 'react';
import { Button } from '../../components/ui/button';
import { ApiError, api } from '../../lib/api';
import { toast } from '../../lib/toast';

const QUESTIONS_MAX = 500;

const readText = (file: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result ?? ''));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(file);
  });

/**
 * Custom questions in and out as CSV (question, expected_answer, checks): the server reads an
 * import and says which row is wrong; an export is written here with the same rules as the
 * server's (formula-like cells start with a quote).
 */
export const QuestionsCsv = ({
  questions,
  onImport,
}: {
  questions: TQuestion[];
  onImport: (questions: TQuestion[]) => void;
}) => {
  const inputId = useId();
  const errorId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const read = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setError(null);
    if (file.size > QUESTIONS_CSV_MAX_CHARS) {
      setError('The CSV is larger than 1 MB. Split it into smaller files.');
      return;
    }
    setBusy(true);
    try {
      const csv = await readText(file);
      const result = await api<TImportQuestionsResponse>('/api/evaluation/questions/import', {
        body: { csv },
        silent: true,
      });
      if (questions.length + result.questions.length > QUESTIONS_MAX) {
        setError(
          `Custom questions hold at most ${QUESTIONS_MAX}: ${questions.length} are there and the file has ${result.questions.length}.`,
        );
        return;
      }
      onImport(result.questions);
      toast.success(`Imported ${result.questions.length} question${result.questions.length === 1 ? '' : 's'}`);
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'The file could not be read.');
    } finally {
      setBusy(false);
    }
  };

  const download = () => {
    const url = URL.createObjectURL(new Blob([questionsCsv(questions)], { type: 'text/csv;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'test-questions.csv';
    link.click();
    URL.revokeObjectURL(url);
  };

  return (
    <div className="flex flex-wrap items-center gap-2">
      <input
        id={inputId}
        type="file"
        accept=".csv,text/csv"
        className="sr-only"
        onChange={read}
        disabled={busy}
        aria-describedby={error ? errorId : undefined}
      />
      <label
        htmlFor={inputId}
        className="inline-flex h-10 cursor-pointer items-center gap-2 rounded-lg border border-border bg-surface px-4 text-sm font-medium text-foreground hover:bg-surface-2 focus-within:ring-2"
      >
        <Upload size={16} aria-hidden="true" /> {busy ? 'Importing...' : 'Import questions (CSV)'}
      </label>
      <Button variant="secondary" onClick={download} disabled={!questions.length}>
        <Download size={16} aria-hidden="true" /> Export questions (CSV)
      </Button>
      <p className="w-full text-xs text-muted">
        Columns: question, expected_answer (the success criteria), checks (a JSON array). Imported questions join the
        custom questions.
      </p>
      {error ? (
        <p id={errorId} role="alert" className="w-full text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
};
