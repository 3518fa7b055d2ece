import type { TChannelMedia } from '@switchboard/core';
import { useId, useState } from 'react';
import { FieldError } from '../../components/ui/input';
import { uploadFile } from './upload';

/**
 * "Upload a file": sends an image or a PDF to the connection and hands back the address it is
 * served from (the server checks the type by its bytes and the 5 MB limit).
 */
export const MediaUpload = ({
  connectionId,
  onUploaded,
  label = 'Upload a file',
}: {
  connectionId: string;
  onUploaded: (media: TChannelMedia) => void;
  label?: string;
}) => {
  const id = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <div>
      <label
        htmlFor={id}
        className="inline-flex h-8 cursor-pointer items-center rounded-lg border border-border bg-surface px-3 text-sm hover:bg-surface-2 focus-within:outline focus-within:outline-2 focus-within:outline-primary"
      >
        {busy ? 'Uploading...' : label}
        <input
          id={id}
          type="file"
          className="sr-only"
          accept="image/jpeg,image/png,image/gif,image/webp,application/pdf"
          disabled={busy}
          onChange={async (event) => {
            const file = event.target.files?.[0];
            event.target.value = '';
            if (!file) return;
            setBusy(true);
            setError(null);
            try {
              onUploaded(await uploadFile<TChannelMedia>(`/api/channels/${connectionId}/media`, file));
            } catch (thrown) {
              setError(thrown instanceof Error ? thrown.message : 'The file could not be uploaded');
            } finally {
              setBusy(false);
            }
          }}
        />
      </label>
      <FieldError>{error}</FieldError>
    </div>
  );
};
